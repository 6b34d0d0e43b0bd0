//! [`Table`]: one page's game and engine, for any variant. The page sends commands
//! ([`Command`]); the table answers with JSON messages: `state` (the board, the legal
//! moves, the move list, the end of the game), `info` (a line of the analysis or of the
//! engine's thinking) and `pdn` (an export). [`GameTable`] is the one implementation,
//! monomorphised per variant; [`new_table`] picks it at the boundary.

use super::message::{Command, EngineSide};
use super::outbox::Outbox;
use super::resources::{Kit, Resources};
use super::slots::{Job, Slot, Turn};
use crate::egdb::{Tables, Value as DbValue};
use crate::engine::book::Book;
use crate::engine::search::{Info, Shared};
use crate::engine::skill::Skill;
use crate::engine::time::Limits;
use crate::eval::Evaluation;
use crate::fen::to_fen;
use crate::game::{Game, Outcome};
use crate::movegen;
use crate::moves::Move;
use crate::notation::{move_path, move_text, parse_move, square_name};
use crate::pdn::{parse_pdn, PdnGame};
use crate::pdn::{read_game, PastEnd, RecordError};
use crate::play::annotation::{self, Verdict};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};
use crate::variant::Variant;
use crate::with_variant;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// dama's moves on the board come from the book moves within this many hundredths of a
/// man of the best, one at random, so that games vary.
pub const BOOK_MARGIN: crate::types::Score = 10;

/// What the engine does next when no command is waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Nothing: the page's turn.
    Idle,
    /// The engine is to move in the game.
    Move,
    /// The game's annotation is on and not finished: search its next position.
    Annotate,
    /// Analysis is on: search the shown position until the next command.
    Analyze,
}

/// Where the positions' verdicts of an annotation go: the number of the line they
/// belong to (see [`Table::annotated`]), the position's index in the game, and the
/// verdict.
pub type VerdictSink = tokio::sync::mpsc::UnboundedSender<(u64, usize, Verdict)>;

/// The key under which annotation messages are merged in the outbox (one is enough:
/// the newest holds all that the older ones held).
pub const ANNOTATION_LINE: usize = usize::MAX;

/// A game's annotation on the page: one verdict per position of the line, filled in the
/// background.
struct Annotation {
    movetime: u64,
    verdicts: Vec<Option<Verdict>>,
    /// Still filling in (a stop keeps what is done).
    active: bool,
}

impl Annotation {
    /// On, with positions still to search.
    fn unfinished(&self) -> bool {
        self.active && self.verdicts.iter().any(Option::is_none)
    }
}

/// One page's game and engine, whatever the variant.
pub trait Table: Send {
    /// The variant played.
    fn variant(&self) -> Variant;
    /// Applies a command (every command but `new`, which makes a new table). Returns
    /// the messages to send, or an error for the page.
    fn command(&mut self, cmd: &Command) -> Result<Vec<Value>, String>;
    /// The `state` message.
    fn state(&self) -> Value;
    /// What to do when idle.
    fn task(&self) -> Task;
    /// A book move for the engine in the shown position, one of those within
    /// [`BOOK_MARGIN`] of the best at random, if the book holds the position.
    fn book_move(&self) -> Option<Move>;
    /// The search of `task` (not [`Task::Idle`]) in the shown position, to run on a
    /// slot: its `info` lines go to `out` as generation `generation`, an annotation's
    /// verdicts to `verdicts`.
    fn job(
        &self,
        task: Task,
        out: Arc<Outbox>,
        generation: u64,
        verdicts: VerdictSink,
    ) -> Box<dyn Job>;
    /// Takes a verdict of the annotation: position `index` of line number `line`
    /// (ignored when the line has changed since). Returns the `annotation` message.
    fn annotated(&mut self, line: u64, index: usize, verdict: Verdict) -> Option<Value>;
    /// Plays the engine's move found by its job; false when it is not legal any more.
    fn play_engine_move(&mut self, mv: Move) -> bool;
}

/// A table for `variant` at `fen` (or the start) followed by the moves `moves` (the
/// variant's notation, separated by spaces).
pub fn new_table(
    variant: Variant,
    fen: Option<&str>,
    moves: Option<&str>,
    resources: &Resources,
) -> Result<Box<dyn Table>, String> {
    with_variant!(variant, R => {
        let kit = resources.kit::<R>()?;
        let mut t = GameTable::<R>::new(&kit);
        t.load(fen, moves)?;
        Ok(Box::new(t) as Box<dyn Table>)
    })
}

/// The variant a PDN game names (its `Variant` tag, or `GameType` 21 for english).
pub fn pdn_variant(text: &str) -> Option<Variant> {
    parse_pdn(text).into_iter().next()?.variant()
}

/// The game of a PDN text (its first game): the `FEN` tag or the start position, and
/// its moves read in the variant's notation.
pub fn game_from_pdn<R: Rules>(text: &str) -> Result<Game<R>, String> {
    crate::pdn::read_pdn_game::<R>(text).map_err(|e| match e {
        RecordError::Fen(e) => format!("the FEN tag: {e}"),
        other => other.to_string(),
    })
}

/// How long the engine thinks, per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Milliseconds a move.
    MoveTime(u64),
    /// Plies of iterative deepening.
    Depth(u32),
}

/// The game of one page in the variant `R`.
pub struct GameTable<R: Rules> {
    evaluation: Evaluation,
    book: Option<Arc<Book<R>>>,
    egdb: Option<Arc<Tables<R>>>,
    start: Position<R>,
    /// Every move of the game, including those after the shown position.
    line: Vec<Move>,
    /// How many moves of `line` lead to the shown position.
    cursor: usize,
    side: EngineSide,
    level: Level,
    /// The engine's playing level (its moves only; analysis is at full strength).
    skill: Skill,
    analysis: bool,
    multipv: usize,
    annotation: Option<Annotation>,
    /// Changes whenever `line` loses or changes moves (verdicts of the old line are
    /// dropped); adding a move at its end keeps it.
    line_id: u64,
}

impl<R: Rules> GameTable<R> {
    /// A table at the start position; the engine plays nobody, analysis off.
    pub fn new(kit: &Kit<R>) -> GameTable<R> {
        GameTable {
            evaluation: kit.evaluation.clone(),
            book: kit.book.clone(),
            egdb: kit.egdb.clone(),
            start: Position::start(),
            line: Vec::new(),
            cursor: 0,
            side: EngineSide::None,
            level: Level::MoveTime(1000),
            skill: Skill::default(),
            analysis: false,
            multipv: 1,
            annotation: None,
            line_id: 0,
        }
    }

    /// Sets the game: `fen` (or the start) and then `moves`.
    pub fn load(&mut self, fen: Option<&str>, moves: Option<&str>) -> Result<(), String> {
        let fen = fen.map(str::trim).filter(|f| !f.is_empty());
        let moves = moves.unwrap_or("").split_whitespace();
        let game =
            read_game(fen, moves, parse_move::<R>, PastEnd::Refuse).map_err(|e| match e {
                RecordError::Fen(e) => format!("bad FEN: {e}"),
                other => other.to_string(),
            })?;
        self.set_game(game);
        Ok(())
    }

    fn set_game(&mut self, game: Game<R>) {
        self.start = game.positions()[0];
        self.line = game.moves().to_vec();
        self.cursor = self.line.len();
        self.annotation = None;
        self.line_id += 1;
    }

    /// The line now keeps its first `kept` moves, and may have new ones after them: the
    /// verdicts of positions `0..=kept` stand, the others are to be searched.
    fn line_changed(&mut self, kept: usize) {
        if kept < self.line.len() || self.annotation.is_some() {
            self.line_id += 1;
        }
        if let Some(a) = &mut self.annotation {
            a.verdicts.truncate(kept + 1);
            a.verdicts.resize(self.line.len() + 1, None);
        }
    }

    /// The whole line as a game.
    fn full_game(&self) -> Game<R> {
        let mut g = Game::new(self.start);
        for mv in &self.line {
            g.play(mv);
        }
        g
    }

    /// The `annotation` message: per position its score (White's view, for the graph)
    /// and best move; per move its label, mark, loss and the better move; the summary
    /// per side once every position is done.
    fn annotation_message(&self) -> Value {
        let Some(a) = &self.annotation else {
            return Value::Null;
        };
        let game = self.full_game();
        let positions = game.positions();
        let points: Vec<Value> = a
            .verdicts
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let Some(v) = v else { return Value::Null };
                let pos = &positions[i];
                let white = if pos.side() == Color::White {
                    v.score
                } else {
                    -v.score
                };
                json!({
                    "index": i,
                    "white_score": white,
                    "score_text": crate::engine::analysis::score_text(v.score),
                    "best": v.best().map(|b| move_text(pos, b)),
                    "depth": v.depth,
                })
            })
            .collect();
        let mut notes = Vec::new();
        let moves: Vec<Value> = (0..self.line.len())
            .map(|i| match (&a.verdicts[i], &a.verdicts[i + 1]) {
                (Some(before), Some(after)) => {
                    let pos = &positions[i];
                    let n = annotation::note(i + 1, pos.side(), self.line[i], before, after);
                    let better = (!n.is_best()).then(|| n.before.best().map(|b| move_text(pos, b)));
                    let v = json!({
                        "ply": n.ply,
                        "label": n.label.map(annotation::Label::word),
                        "mark": n.label.map_or("", annotation::Label::mark),
                        "loss": n.loss,
                        "played_score_text": crate::engine::analysis::score_text(n.played_score),
                        "best": better.flatten(),
                        "best_score_text": crate::engine::analysis::score_text(n.before.score),
                    });
                    notes.push(n);
                    v
                }
                _ => Value::Null,
            })
            .collect();
        let done = a.verdicts.iter().filter(|v| v.is_some()).count();
        let complete = done == a.verdicts.len();
        let summary = complete.then(|| {
            let sides = annotation::summary(&notes);
            let side = |s: &annotation::SideSummary| {
                json!({
                    "moves": s.moves,
                    "average_loss": s.average_loss(),
                    "inaccuracies": s.count(annotation::Label::Inaccuracy),
                    "mistakes": s.count(annotation::Label::Mistake),
                    "blunders": s.count(annotation::Label::Blunder),
                })
            };
            json!({"white": side(&sides[0]), "black": side(&sides[1])})
        });
        json!({
            "type": "annotation",
            "movetime": a.movetime,
            "active": a.active && !complete,
            "done": done,
            "total": a.verdicts.len(),
            "points": points,
            "moves": moves,
            "summary": summary,
        })
    }

    /// The annotated game as PDN, when every position is done.
    fn annotated_pdn(&self) -> Option<String> {
        let a = self.annotation.as_ref()?;
        let verdicts: Option<Vec<Verdict>> = a.verdicts.iter().cloned().collect();
        let verdicts = verdicts?;
        let game = self.full_game();
        let notes = annotation::notes(&game, &verdicts);
        let plain = parse_pdn(&self.pdn_text()).into_iter().next()?;
        let annotator = format!("dama serve, {} ms a position", a.movetime);
        Some(annotation::annotated_pdn(&plain, &game, &notes, &annotator).to_text())
    }

    /// The game up to the shown position.
    pub fn game(&self) -> Game<R> {
        let mut g = Game::new(self.start);
        for mv in &self.line[..self.cursor] {
            g.play(mv);
        }
        g
    }

    fn engine_colour(&self) -> Option<Color> {
        match self.side {
            EngineSide::White => Some(Color::White),
            EngineSide::Black => Some(Color::Black),
            EngineSide::None => None,
        }
    }

    /// Plays `mv` at the shown position; later moves of the line are dropped unless
    /// `mv` is the next one.
    fn play(&mut self, mv: Move) {
        if self.line.get(self.cursor) != Some(&mv) {
            self.line.truncate(self.cursor);
            self.line.push(mv);
            self.line_changed(self.cursor);
        }
        self.cursor += 1;
    }

    fn pdn_text(&self) -> String {
        let full = {
            let mut g = Game::new(self.start);
            for mv in &self.line {
                g.play(mv);
            }
            g
        };
        let moves = crate::notation::move_texts(&full);
        let result = match full.outcome() {
            Some(o) => match o.winner() {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            },
            None => "*",
        };
        let dama = if self.skill.is_full() {
            "dama".to_string()
        } else {
            format!("dama level {} ({})", self.skill.level(), self.skill.name())
        };
        let name = |c: Color| {
            if self.engine_colour() == Some(c) {
                dama.as_str()
            } else {
                "human"
            }
        };
        let fen = (self.start != Position::start()).then_some(&self.start);
        let players = [name(Color::White), name(Color::Black)];
        let mut tags = crate::pdn::game_tags("dama serve", None, players, result, fen);
        if self.engine_colour().is_some() {
            // The engine's playing level: 1 to 10 (full strength).
            tags.push(("Level".to_string(), self.skill.level().to_string()));
        }
        PdnGame {
            tags,
            moves,
            result: result.to_string(),
            ..Default::default()
        }
        .to_text()
    }

    fn limits(&self) -> Limits {
        match self.level {
            Level::MoveTime(ms) => Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Default::default()
            },
            Level::Depth(d) => Limits {
                depth: Some(d),
                ..Default::default()
            },
        }
    }
}

/// The `info` message of an iteration `info` of the search of `pos`.
fn info_message<R: Rules>(pos: &Position<R>, info: &Info, purpose: &str) -> Value {
    let mut p = *pos;
    let mut pv = Vec::new();
    let mut first_path = Vec::new();
    for (i, mv) in info.pv.iter().enumerate() {
        if !movegen::legal_moves(&p).contains(mv) {
            break;
        }
        if i == 0 {
            first_path = move_path(&p, mv).iter().map(|s| s.index()).collect();
        }
        pv.push(move_text(&p, mv));
        p = p.play(mv);
    }
    // White's view, for the bar.
    let white = if pos.side() == Color::White {
        info.score
    } else {
        -info.score
    };
    json!({
        "type": "info",
        "purpose": purpose,
        "line": info.multipv,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": info.score,
        "white_score": white,
        "score_text": crate::engine::analysis::score_text(info.score),
        "win_in": info.win_in(),
        "nodes": info.nodes,
        "nps": info.nps(),
        "time_ms": info.time.as_millis() as u64,
        "pv": pv,
        "first_path": first_path,
        "preview": board_string(&p),
        "egdb": info.egdb.map(db_text),
    })
}

/// A database value as the page shows it.
fn db_text(v: DbValue) -> String {
    match v {
        DbValue::Win(d) => format!("database: win, capture in {d}"),
        DbValue::Draw => "database: draw".to_string(),
        DbValue::Loss(d) => format!("database: loss, capture in {d}"),
    }
}

/// The board as 64 characters from a1 to h8 (a1, b1, ... h1, a2 ...): `.` empty, `w`
/// and `b` men, `W` and `B` kings.
pub fn board_string<R: Rules>(pos: &Position<R>) -> String {
    (0..64u8)
        .map(|i| match pos.piece_at(Square::new(i)) {
            None => '.',
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            },
        })
        .collect()
}

/// How the game ended, in words, with the rule.
pub fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::NoMoves { loser } => format!(
            "{} wins: {} has no legal move (G8)",
            colour_name(loser.opponent()),
            colour_name(loser)
        ),
        Outcome::Repetition => "Draw: the same position for the third time (G9)".to_string(),
        Outcome::NoCapture(n) => format!("Draw: {n} plies without a capture (E7)"),
    }
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl<R: Rules> Table for GameTable<R> {
    fn variant(&self) -> Variant {
        R::NAME.parse().expect("a variant's own name")
    }

    fn command(&mut self, cmd: &Command) -> Result<Vec<Value>, String> {
        match cmd {
            // The worker makes a new table for a new game; it never comes here.
            Command::New { .. } => Err("a new game needs a new table".to_string()),
            Command::Move { from, to, captured } => {
                let game = self.game();
                if let Some(o) = game.outcome() {
                    return Err(format!("the game is over: {}", outcome_text(o)));
                }
                let pos = *game.position();
                let parse = |t: &str| -> Result<Square, String> {
                    crate::notation::parse_square::<R>(t).map_err(|e| e.to_string())
                };
                let from = parse(from)?;
                let to = parse(to)?;
                let mut taken = crate::bitboard::Bitboard::EMPTY;
                for c in captured {
                    taken |= crate::bitboard::Bitboard::from_square(parse(c)?);
                }
                let mv = Move {
                    captured: taken,
                    from,
                    to,
                };
                if !movegen::legal_moves(&pos).contains(&mv) {
                    return Err(format!(
                        "{} is not a legal move here",
                        crate::notation::path_text::<R>(&[from, to], mv.is_capture())
                    ));
                }
                self.play(mv);
                Ok(vec![self.state()])
            }
            Command::Undo => {
                if self.cursor == 0 {
                    return Err("there is no move to take back".to_string());
                }
                self.cursor -= 1;
                // Back to a position where the page is to move.
                if let Some(c) = self.engine_colour() {
                    let side = |t: &Self| t.game().position().side();
                    if side(self) == c && self.cursor > 0 {
                        self.cursor -= 1;
                    }
                }
                self.line.truncate(self.cursor);
                self.line_changed(self.cursor);
                Ok(vec![self.state()])
            }
            Command::Goto { ply } => {
                if *ply > self.line.len() {
                    return Err(format!(
                        "ply {ply} is past the end of the game ({} plies)",
                        self.line.len()
                    ));
                }
                self.cursor = *ply;
                Ok(vec![self.state()])
            }
            Command::Fen { fen } => {
                self.load(Some(fen), None)?;
                Ok(vec![self.state()])
            }
            Command::Pdn { text } => {
                let game = game_from_pdn::<R>(text)?;
                self.set_game(game);
                Ok(vec![self.state()])
            }
            Command::Export => Ok(vec![json!({
                "type": "pdn",
                "annotated": self.annotated_pdn().is_some(),
                "text": self.annotated_pdn().unwrap_or_else(|| self.pdn_text()),
                "fen": to_fen(self.game().position()),
            })]),
            Command::Engine {
                side,
                movetime,
                depth,
                skill,
            } => {
                self.side = *side;
                if let Some(level) = skill {
                    self.skill = Skill::new(*level)?;
                }
                self.level = match (movetime, depth) {
                    (_, Some(d)) => Level::Depth(*d),
                    (Some(ms), None) => Level::MoveTime(*ms),
                    (None, None) => self.level,
                };
                Ok(vec![self.state()])
            }
            Command::Analyze { on, multipv } => {
                self.analysis = *on;
                if let Some(n) = multipv {
                    self.multipv = *n;
                }
                Ok(vec![self.state()])
            }
            Command::Go => {
                // Move now: the engine takes the side to move.
                let side = self.game().position().side();
                self.side = if side == Color::White {
                    EngineSide::White
                } else {
                    EngineSide::Black
                };
                Ok(vec![self.state()])
            }
            Command::Annotate { on, movetime } => {
                let movetime = movetime.unwrap_or(super::message::ANNOTATE_MOVETIME_MS);
                match &mut self.annotation {
                    // The same time a position: go on where it stopped.
                    Some(a) if *on && a.movetime == movetime => a.active = true,
                    Some(a) if !*on => a.active = false,
                    _ if *on => {
                        self.annotation = Some(Annotation {
                            movetime,
                            verdicts: vec![None; self.line.len() + 1],
                            active: true,
                        });
                        self.line_id += 1;
                    }
                    _ => {}
                }
                Ok(vec![self.state(), self.annotation_message()])
            }
            Command::Stop => {
                // The search is already stopped; nothing restarts it.
                self.analysis = false;
                self.side = EngineSide::None;
                if let Some(a) = &mut self.annotation {
                    a.active = false;
                }
                Ok(vec![self.state()])
            }
            Command::State => Ok(vec![self.state()]),
        }
    }

    fn state(&self) -> Value {
        let game = self.game();
        let pos = *game.position();
        let outcome = game.outcome();
        let mut moves = Vec::new();
        if outcome.is_none() {
            let legal = movegen::legal_moves(&pos);
            let paths = movegen::capture_paths(&pos);
            for mv in legal.iter() {
                let text = move_text(&pos, mv);
                let captured: Vec<usize> = mv.captured.into_iter().map(|s| s.index()).collect();
                let mut mv_paths: Vec<Vec<usize>> = paths
                    .iter()
                    .filter(|(m, _)| m == mv)
                    .map(|(_, p)| p.iter().map(|s| s.index()).collect())
                    .collect();
                if mv_paths.is_empty() {
                    mv_paths.push(vec![mv.from.index(), mv.to.index()]);
                }
                for path in mv_paths {
                    moves.push(json!({
                        "from": square_name::<R>(mv.from),
                        "to": square_name::<R>(mv.to),
                        "path": path,
                        "captured": captured,
                        "captured_names": mv.captured.into_iter().map(square_name::<R>).collect::<Vec<_>>(),
                        "text": text,
                    }));
                }
            }
        }
        let mut history = Vec::new();
        let mut p = self.start;
        for (i, mv) in self.line.iter().enumerate() {
            history.push(json!({
                "ply": i + 1,
                "text": move_text(&p, mv),
                "side": colour_name(p.side()),
            }));
            p = p.play(mv);
        }
        let last = (self.cursor > 0).then(|| {
            let before = game.positions()[self.cursor - 1];
            let mv = self.line[self.cursor - 1];
            json!({
                "path": move_path(&before, &mv).iter().map(|s| s.index()).collect::<Vec<_>>(),
                "captured": mv.captured.into_iter().map(|s| s.index()).collect::<Vec<_>>(),
            })
        });
        let labels: Vec<Option<String>> = (0..64u8)
            .map(|i| {
                let sq = Square::new(i);
                R::BOARD.contains(sq).then(|| square_name::<R>(sq))
            })
            .collect();
        let egdb = self
            .egdb
            .as_ref()
            .filter(|_| outcome.is_none())
            .and_then(|t| t.lookup(&pos).ok().flatten())
            .map(db_text);
        json!({
            "type": "state",
            "variant": R::NAME,
            "fen": to_fen(&pos),
            "start_fen": to_fen(&self.start),
            "custom_start": self.start != Position::start(),
            "board": board_string(&pos),
            "labels": labels,
            "numeric": R::NUMERIC_SQUARES,
            "side": colour_name(pos.side()),
            "moves": moves,
            "history": history,
            "cursor": self.cursor,
            "last": last,
            "outcome": outcome.map(outcome_text),
            "since_capture": pos.plies_since_capture(),
            "engine": {
                "side": self.side.name(),
                "movetime": match self.level { Level::MoveTime(ms) => Some(ms), _ => None },
                "depth": match self.level { Level::Depth(d) => Some(d), _ => None },
                "skill": self.skill.level(),
                "skill_name": self.skill.name(),
            },
            "analysis": self.analysis,
            "multipv": self.multipv,
            "annotation": self.annotation_message(),
            "book": self.book.as_ref().and_then(|b| b.probe(&pos)).map(|moves| {
                moves
                    .iter()
                    .map(|m| json!({
                        "move": move_text(&pos, &m.mv),
                        "score_text": crate::engine::analysis::score_text(m.score),
                    }))
                    .collect::<Vec<_>>()
            }),
            "egdb": egdb,
            "egdb_slices": self.egdb.as_ref().map(|t| t.summary()),
        })
    }

    fn task(&self) -> Task {
        let game = self.game();
        if game.outcome().is_some() {
            // An annotation goes on whatever position is shown.
            return if self.annotation.as_ref().is_some_and(Annotation::unfinished) {
                Task::Annotate
            } else {
                Task::Idle
            };
        }
        if self.cursor == self.line.len() && self.engine_colour() == Some(game.position().side()) {
            return Task::Move;
        }
        if self.annotation.as_ref().is_some_and(Annotation::unfinished) {
            return Task::Annotate;
        }
        if self.analysis {
            return Task::Analyze;
        }
        Task::Idle
    }

    fn book_move(&self) -> Option<Move> {
        let pos = *self.game().position();
        if !self.skill.uses_book(self.cursor) {
            return None;
        }
        self.book
            .as_ref()
            .and_then(|b| b.choose(&pos, BOOK_MARGIN, rand::random()))
    }

    fn job(
        &self,
        task: Task,
        out: Arc<Outbox>,
        generation: u64,
        verdicts: VerdictSink,
    ) -> Box<dyn Job> {
        if task == Task::Annotate {
            let a = self.annotation.as_ref().expect("an annotation to fill in");
            return Box::new(AnnotateJob {
                game: self.full_game(),
                todo: (0..a.verdicts.len())
                    .filter(|&i| a.verdicts[i].is_none())
                    .collect(),
                movetime: Duration::from_millis(a.movetime),
                evaluation: self.evaluation.clone(),
                egdb: self.egdb.clone(),
                line: self.line_id,
                sink: verdicts,
            });
        }
        let (limits, lines, purpose, skill) = match task {
            Task::Analyze | Task::Idle | Task::Annotate => (
                Limits {
                    infinite: true,
                    ..Default::default()
                },
                self.multipv,
                "analysis",
                Skill::default(),
            ),
            Task::Move => (
                self.skill.limits(&self.limits()),
                self.skill.lines(),
                "move",
                self.skill,
            ),
        };
        Box::new(SearchJob {
            skill,
            game: self.game(),
            evaluation: self.evaluation.clone(),
            egdb: self.egdb.clone(),
            limits,
            lines,
            purpose,
            out,
            generation,
            shown: Vec::new(),
        })
    }

    fn play_engine_move(&mut self, mv: Move) -> bool {
        let game = self.game();
        if game.outcome().is_some() || !movegen::legal_moves(game.position()).contains(&mv) {
            return false;
        }
        self.play(mv);
        true
    }

    fn annotated(&mut self, line: u64, index: usize, verdict: Verdict) -> Option<Value> {
        if line != self.line_id {
            return None;
        }
        let slot = self.annotation.as_mut()?.verdicts.get_mut(index)?;
        *slot = Some(verdict);
        Some(self.annotation_message())
    }
}

/// A game's annotation, as a slot runs it: every position still to do is searched for
/// `movetime` with the game's history before it, as `dama annotate` does. A turn is
/// never cut inside a position's search: an annotation gives way between positions
/// ([`Job::yields_between_searches`]) and goes on at the next one when its turn comes
/// again.
struct AnnotateJob<R: Rules> {
    game: Game<R>,
    /// The positions still to search, in order.
    todo: std::collections::VecDeque<usize>,
    movetime: Duration,
    evaluation: Evaluation,
    egdb: Option<Arc<Tables<R>>>,
    line: u64,
    sink: VerdictSink,
}

impl<R: Rules> Job for AnnotateJob<R> {
    fn variant(&self) -> Variant {
        R::VARIANT
    }

    fn yields_between_searches(&self) -> bool {
        true
    }

    fn run(&mut self, slot: &Slot, stop: &Shared, turn: &Turn<'_>) -> Option<Move> {
        let limits = Limits {
            movetime: Some(self.movetime),
            ..Default::default()
        };
        while let Some(&i) = self.todo.front() {
            if !turn.rearm(stop) {
                return None;
            }
            let history = &self.game.positions()[..=i];
            let last = i == self.game.moves().len();
            let over = if last { self.game.outcome() } else { None };
            let verdict = match over {
                Some(o) => annotation::end_verdict(o),
                None => {
                    let r = crate::engine::threads::search(
                        history,
                        &limits,
                        1,
                        &slot.threads,
                        &slot.tt,
                        &self.evaluation,
                        stop,
                        self.egdb.as_deref(),
                        &|_| {},
                    );
                    // Stopped by the page inside the position: nothing is kept.
                    if turn.cancelled() {
                        return None;
                    }
                    Verdict::of(&r)
                }
            };
            self.todo.pop_front();
            if self.sink.send((self.line, i, verdict)).is_err() {
                return None;
            }
        }
        None
    }
}

/// A page's search, as a slot runs it: a copy of the game and what the search needs.
struct SearchJob<R: Rules> {
    /// The level the move is chosen at (full strength for analysis).
    skill: Skill,
    game: Game<R>,
    evaluation: Evaluation,
    egdb: Option<Arc<Tables<R>>>,
    limits: Limits,
    lines: usize,
    purpose: &'static str,
    out: Arc<Outbox>,
    generation: u64,
    /// The deepest iteration sent so far, per line: an analysis that comes back after
    /// its slice does not show its shallow iterations again.
    shown: Vec<u32>,
}

impl<R: Rules> Job for SearchJob<R> {
    fn variant(&self) -> Variant {
        R::VARIANT
    }

    fn run(&mut self, slot: &Slot, stop: &Shared, _turn: &Turn<'_>) -> Option<Move> {
        let pos = *self.game.position();
        let shown = Mutex::new(std::mem::take(&mut self.shown));
        let report = |info: &Info| {
            let mut s = shown.lock().unwrap_or_else(|e| e.into_inner());
            let line = info.multipv.max(1);
            if s.len() < line {
                s.resize(line, 0);
            }
            if info.depth < s[line - 1] {
                return;
            }
            s[line - 1] = info.depth;
            drop(s);
            let text = info_message(&pos, info, self.purpose).to_string();
            self.out.info(self.generation, line, text);
        };
        let mut result = crate::engine::threads::search(
            self.game.positions(),
            &self.limits,
            self.lines,
            &slot.threads,
            &slot.tt,
            &self.evaluation,
            stop,
            self.egdb.as_deref(),
            &report,
        );
        self.shown = shown.into_inner().unwrap_or_else(|e| e.into_inner());
        self.skill
            .pick::<R>(&mut result, Skill::noise(None, self.game.position()));
        result.best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_name_their_rule() {
        assert_eq!(
            outcome_text(Outcome::NoMoves {
                loser: Color::White
            }),
            "Black wins: White has no legal move (G8)"
        );
        assert_eq!(
            outcome_text(Outcome::Repetition),
            "Draw: the same position for the third time (G9)"
        );
        assert_eq!(
            outcome_text(Outcome::NoCapture(100)),
            "Draw: 100 plies without a capture (E7)"
        );
    }
}
