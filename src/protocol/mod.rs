//! The Hub-compatible text protocol (see `protocol.md`): a reader thread turns stdin
//! into lines, the loop parses each into a [`Command`] ([`command`], on the line syntax
//! of [`syntax`]) and runs it, one writer prints the replies. The parameters are one
//! table, [`params::PARAMS`]. A search runs on its own thread and reports through the
//! same writer; while it runs only `ping`, `ponder-hit` and `stop` leave it alone.

pub mod client;
pub mod command;
pub mod hubpos;
pub mod params;
pub mod syntax;

use crate::engine::search::{Info, Shared};
use crate::engine::skill::Skill;
use crate::engine::time::{Limits, TimeManager};
use crate::engine::Engine;
use crate::fen::{parse_fen, to_fen};
use crate::game::Game;
use crate::movegen;
use crate::moves::Move;
use crate::notation::move_text;
use crate::pdn::{play_moves, PastEnd};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Score;
use crate::variant::Variant;
use crate::with_variant;
use command::{parse_command, Command, Error, Mode, Start};
pub use params::{MoveFormat, Params};
use params::{Param, Rebuild, Value};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use syntax::quote;

/// Longest input line accepted, in bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// The one writer: every line is written whole and flushed, so threads never mix lines.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// A writer over `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes.
    pub fn line(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }

    /// One `error message="..."` line. An `=` in the text becomes `:`, since some
    /// clients split every token at its `=` signs without regard to quotes.
    fn error(&self, message: &str) {
        self.line(&format!(
            "error message={}",
            quote(&message.replace('=', ":"))
        ));
    }
}

/// A search in progress.
struct Running {
    handle: JoinHandle<()>,
    stop: Arc<Shared>,
    /// Set by the search thread when it has printed `done`.
    finished: Arc<AtomicBool>,
    /// The time levels to apply at `ponder-hit` (pondering searches only).
    ponder_levels: Option<Limits>,
    /// A pondering search at a playing level below full strength: its budget ends it
    /// soon, and its `done` waits until this is set, at `ponder-hit` or `stop`.
    hold: Option<Arc<AtomicBool>>,
}

impl Running {
    /// `stop`: the search ends and prints its `done`.
    fn stop(&self) {
        self.stop.stop.store(true, Ordering::Relaxed);
        if let Some(h) = &self.hold {
            h.store(true, Ordering::Relaxed);
        }
    }

    fn stop_and_wait(self) {
        self.stop();
        let _ = self.handle.join();
    }
}

/// The variant-specific half of the protocol: the game and the engine of one rules
/// type. The variant is chosen once, when the session is made.
trait Session: Send {
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String>;
    fn new_game(&mut self);
    fn legal(&self, format: MoveFormat) -> String;
    fn perft(&self, depth: u32) -> String;
    fn show(&self) -> String;
    fn eval(&self) -> String;
    /// Which endgame-database slices the engine found, if any.
    fn egdb_summary(&self) -> Option<String>;
    fn go(&mut self, mode: Mode, limits: Limits, params: &Params, out: &Out) -> Option<Running>;
}

struct VariantSession<R: Rules> {
    game: Game<R>,
    engine: Arc<Mutex<Engine<R>>>,
    /// Which endgame-database slices were found, if any.
    egdb_summary: Option<String>,
    /// The opening book (`book`), if any.
    book: Option<crate::engine::book::Book<R>>,
}

/// The endgame databases of `params` (directory, piece limit, and the variant's small
/// slices solved in memory when `solve` and `egdb-builtin` are on and the directory
/// lacks them) with a line saying what they are, or `None` when the limit is 0 or there
/// is no slice of `R`.
fn open_egdb<R: Rules>(
    params: &Params,
    solve: bool,
) -> Result<Option<(crate::egdb::Tables<R>, String)>, String> {
    if params.egdb_pieces == 0 {
        return Ok(None);
    }
    let dir = if params.egdb_path.is_empty() {
        crate::egdb::default_dir()
    } else {
        std::path::PathBuf::from(&params.egdb_path)
    };
    let builtin = crate::engine::search::settings::builtin_egdb_pieces_within(
        R::VARIANT,
        params.egdb_builtin,
        params.egdb_pieces,
    );
    let mut t = crate::egdb::builtin::open::<R>(&dir, builtin, solve)?;
    t.set_probe_pieces(params.egdb_pieces);
    Ok((!t.is_empty()).then(|| {
        let summary = t.summary_in(&dir);
        (t, summary)
    }))
}

/// A session for `params`; `solve`: the variant's built-in databases are solved now if
/// they are not yet (at `init` and after it), else only those already solved are used.
fn make_session(params: &Params, solve: bool) -> Result<Box<dyn Session>, String> {
    with_variant!(params.variant, R => {
        let mut engine = Engine::<R>::try_new(params.hash, params.threads)?;
        if params.evaluation != "default" {
            engine.set_evaluation(crate::eval::Evaluation::by_name::<R>(&params.evaluation)?);
        }
        let egdb = open_egdb::<R>(params, solve)?;
        let egdb_summary = egdb.as_ref().map(|(_, s)| s.clone());
        engine.set_egdb(egdb.map(|(t, _)| Arc::new(t)));
        let book = match params.book.as_str() {
            "none" => None,
            name => Some(crate::engine::book::Book::<R>::load(name)?),
        };
        Ok(Box::new(VariantSession::<R> {
            game: Game::new(Position::start()),
            engine: Arc::new(Mutex::new(engine)),
            egdb_summary,
            book,
        }) as Box<dyn Session>)
    })
}

/// A score as the protocol writes it: men with two decimals; a forced win in `p` plies
/// is `100 - p/100`, a loss the negative.
/// A won endgame-database position of `n` pieces at the end of the line scores
/// `90 - n - dtc/1000` (its plies to the next capture), a lost one the negative.
pub fn score_text(score: Score) -> String {
    match crate::engine::search::win_in(score) {
        Some(p) if p >= 0 => format!("{:.2}", 100.0 - p as f64 / 100.0),
        Some(p) => format!("{:.2}", -(100.0 + p as f64 / 100.0)),
        None => match crate::engine::search::egdb_parts(score) {
            Some((won, n, d)) => {
                let s = 90.0 - n as f64 - d as f64 / 1000.0;
                format!("{:.3}", if won { s } else { -s })
            }
            None => format!("{:.2}", score as f64 / 100.0),
        },
    }
}

fn write_move<R: Rules>(pos: &Position<R>, mv: &Move, format: MoveFormat) -> String {
    match format {
        MoveFormat::Hub => hubpos::hub_move::<R>(mv),
        MoveFormat::Path => move_text(pos, mv),
    }
}

fn write_line<R: Rules>(pos: &Position<R>, pv: &[Move], format: MoveFormat) -> String {
    let mut p = *pos;
    let mut v = Vec::with_capacity(pv.len());
    for mv in pv {
        v.push(write_move(&p, mv, format));
        p = p.play(mv);
    }
    v.join(" ")
}

/// An `info` line.
fn info_line<R: Rules>(
    pos: &Position<R>,
    info: &Info,
    format: MoveFormat,
    multipv: bool,
) -> String {
    let mut s = String::from("info");
    if multipv {
        s.push_str(&format!(" multipv={}", info.multipv));
    }
    s.push_str(&format!(
        " depth={} seldepth={} score={} nodes={} time={:.3} nps={} hashfull={} pv={}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.time.as_secs_f64(),
        info.nps(),
        info.hashfull,
        quote(&write_line(pos, &info.pv, format))
    ));
    if let Some(v) = info.egdb {
        s.push_str(&format!(" egdb={}", v.word()));
        if let Some(d) = v.distance() {
            s.push_str(&format!(" egdb-dtc={d}"));
        }
    }
    if info.egdb_hits > 0 {
        s.push_str(&format!(" egdb-hits={}", info.egdb_hits));
    }
    s
}

impl<R: Rules> Session for VariantSession<R> {
    fn egdb_summary(&self) -> Option<String> {
        self.egdb_summary.clone()
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let start = match start {
            Start::Fen(f) => parse_fen::<R>(f).map_err(|e| e.to_string())?,
            Start::Hub(p) => {
                hubpos::parse_hub::<R>(p).map_err(|e| format!("bad Hub position: {e}"))?
            }
            Start::Initial => Position::start(),
        };
        let mut game = Game::new(start);
        let read = hubpos::parse_any_move::<R>;
        let result = play_moves(&mut game, moves, read, PastEnd::Allow).map_err(|e| e.by_ply());
        // The position stays at the last legal ply.
        self.game = game;
        result
    }

    fn new_game(&mut self) {
        if let Ok(mut e) = self.engine.lock() {
            e.new_game();
        }
        self.game = Game::new(*self.game.position());
    }

    fn legal(&self, format: MoveFormat) -> String {
        let pos = self.game.position();
        let mut moves: Vec<String> = movegen::legal_moves(pos)
            .iter()
            .map(|m| write_move(pos, m, format))
            .collect();
        moves.sort();
        format!(
            "legal count={} moves={}",
            moves.len(),
            quote(&moves.join(" "))
        )
    }

    fn perft(&self, depth: u32) -> String {
        let t = Instant::now();
        let n = crate::perft::perft(self.game.position(), depth);
        format!(
            "perft depth={depth} nodes={n} time={:.3}",
            t.elapsed().as_secs_f64()
        )
    }

    fn show(&self) -> String {
        let p = self.game.position();
        format!(
            "position variant={} fen={} hub={} side={} reversible={} since-capture={} repetitions={}",
            R::NAME,
            to_fen(p),
            hubpos::to_hub(p),
            p.side(),
            p.reversible_plies(),
            p.plies_since_capture(),
            self.game.occurrences()
        )
    }

    fn eval(&self) -> String {
        let p = self.game.position();
        let w = self
            .engine
            .lock()
            .map(|e| e.evaluation().clone())
            .unwrap_or_else(|_| crate::eval::Evaluation::default_for::<R>());
        format!(
            "eval score={} quiet={}",
            score_text(w.evaluate(p)),
            !movegen::has_capture(p)
        )
    }

    fn go(
        &mut self,
        mode: Mode,
        mut limits: Limits,
        params: &Params,
        out: &Out,
    ) -> Option<Running> {
        let root = *self.game.position();
        if !movegen::has_moves(&root) {
            out.error("no legal move: the side to move has lost");
            out.line("done");
            return None;
        }
        let skill = Skill::new(params.skill).unwrap_or_default();
        let seed = (params.seed != 0).then_some(u64::from(params.seed));
        let noise = Skill::noise(seed, &root);
        if mode == Mode::Think && skill.uses_book(self.game.moves().len()) {
            let margin = params.book_margin as Score;
            if let Some(mv) = self
                .book
                .as_ref()
                .and_then(|b| b.choose(&root, margin, noise))
            {
                out.line(&format!(
                    "done move={}",
                    write_move(&root, &mv, params.format)
                ));
                return None;
            }
        }
        let ponder_levels = if mode == Mode::Ponder {
            let levels = limits.clone();
            limits = Limits {
                depth: levels.depth,
                nodes: levels.nodes,
                infinite: true,
                ..Default::default()
            };
            Some(levels)
        } else {
            None
        };
        let multipv = if mode == Mode::Analyze {
            params.multipv
        } else {
            1
        };
        let format = params.format;
        let engine = Arc::clone(&self.engine);
        let game = self.game.clone();
        let stop = engine.lock().ok()?.stop_flag();
        stop.stop.store(false, Ordering::Relaxed);
        let finished = Arc::new(AtomicBool::new(false));
        let done_flag = Arc::clone(&finished);
        // A level plays its move in `go think` and `go ponder`; `go analyze` is always
        // the full search.
        let skill = if mode == Mode::Analyze {
            Skill::default()
        } else {
            skill
        };
        let hold =
            (mode == Mode::Ponder && !skill.is_full()).then(|| Arc::new(AtomicBool::new(false)));
        let held = hold.clone();
        // A level searches every root move as a line, so its infos carry `multipv`.
        let show_multipv = multipv > 1 || !skill.is_full();
        let out = out.clone();
        let handle = std::thread::spawn(move || {
            let result = {
                let Ok(mut e) = engine.lock() else { return };
                e.set_game(game);
                let report = |info: &Info| out.line(&info_line(&root, info, format, show_multipv));
                if skill.is_full() {
                    e.search_armed(&limits, multipv, &report)
                } else {
                    e.play_armed(&limits, skill, noise, &report)
                }
            };
            if let Some(h) = held {
                while !h.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            match result.best {
                Some(mv) => {
                    let mut s = format!("done move={}", write_move(&root, &mv, format));
                    if let Some(p) = result.ponder {
                        s.push_str(&format!(
                            " ponder={}",
                            write_move(&root.play(&mv), &p, format)
                        ));
                    }
                    out.line(&s);
                }
                None => {
                    out.error("no legal move");
                    out.line("done");
                }
            }
            done_flag.store(true, Ordering::Relaxed);
        });
        Some(Running {
            handle,
            stop,
            finished,
            ponder_levels,
            hold,
        })
    }
}

/// Input from the reader thread.
enum Input {
    Line(String),
    TooLong(usize),
    Eof,
}

/// Reads lines of at most [`MAX_LINE`] bytes; longer ones are skipped whole and reported.
fn reader(input: impl BufRead, tx: mpsc::Sender<Input>) {
    let mut input = input;
    loop {
        let mut buf = Vec::new();
        let mut too_long = 0usize;
        loop {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(_) => {
                    let _ = tx.send(Input::Eof);
                    return;
                }
            };
            if chunk.is_empty() {
                if !buf.is_empty() {
                    let _ = tx.send(Input::Line(String::from_utf8_lossy(&buf).into_owned()));
                }
                let _ = tx.send(Input::Eof);
                return;
            }
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if too_long == 0 && buf.len() + take <= MAX_LINE + 1 {
                buf.extend_from_slice(&chunk[..take]);
            } else {
                too_long = too_long.max(buf.len()) + take;
                buf.clear();
            }
            input.consume(take);
            if end {
                break;
            }
        }
        let msg = if too_long > 0 {
            Input::TooLong(too_long)
        } else {
            Input::Line(String::from_utf8_lossy(&buf).into_owned())
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// The protocol state between lines.
struct Hub {
    params: Params,
    session: Box<dyn Session>,
    /// `init` was received: sessions made from now on solve the variant's built-in
    /// databases (before it, a `set-param` sequence does not solve for each variant it
    /// passes through).
    initialised: bool,
    running: Option<Running>,
    levels: Limits,
    out: Out,
}

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Hub {
    fn new(out: Out) -> Hub {
        let params = Params::default();
        Hub {
            session: make_session(&params, false).expect("the default 64 MiB table"),
            initialised: false,
            params,
            running: None,
            levels: Limits::default(),
            out,
        }
    }

    fn searching(&mut self) -> bool {
        if let Some(r) = &self.running {
            if r.finished.load(Ordering::Relaxed) {
                if let Some(r) = self.running.take() {
                    let _ = r.handle.join();
                }
                return false;
            }
            return true;
        }
        false
    }

    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop_and_wait();
        }
    }

    fn handle(&mut self, text: &str) -> Flow {
        let command = match parse_command(text) {
            Ok(Some(c)) => Ok(c),
            Ok(None) => return Flow::Continue,
            Err(Error::Syntax(e)) => {
                self.out.error(&e);
                return Flow::Continue;
            }
            Err(Error::Invalid(e)) => Err(e),
        };
        if self.searching() {
            match command {
                Ok(Command::Ping) => {
                    self.out.line("pong");
                    return Flow::Continue;
                }
                Ok(Command::Stop) => {
                    if let Some(r) = &self.running {
                        r.stop();
                    }
                    return Flow::Continue;
                }
                Ok(Command::PonderHit) => {
                    self.ponder_hit();
                    return Flow::Continue;
                }
                Ok(Command::Quit) => return Flow::Quit,
                _ => self.stop_search(),
            }
        }
        match command.and_then(|c| self.run(c)) {
            Ok(flow) => flow,
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    /// `ponder-hit`: the expected move was played; from now on the clock runs.
    fn ponder_hit(&mut self) {
        let Some(r) = &mut self.running else { return };
        let Some(levels) = r.ponder_levels.take() else {
            return;
        };
        if let Some(h) = &r.hold {
            // A level's search is bounded by its budget: it answers now, or as soon as
            // it is done.
            h.store(true, Ordering::Relaxed);
            return;
        }
        let budget = TimeManager::with_clock_moves(
            &levels,
            Instant::now(),
            crate::engine::search::settings::clock_moves(self.params.variant),
        )
        .budget();
        if let Some(budget) = budget {
            let stop = Arc::clone(&r.stop);
            let finished = Arc::clone(&r.finished);
            std::thread::spawn(move || {
                let t = Instant::now();
                while t.elapsed() < budget && !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1).min(budget));
                }
                stop.stop.store(true, Ordering::Relaxed);
            });
        }
    }

    fn run(&mut self, command: Command) -> Result<Flow, String> {
        match command {
            Command::Hub => self.hello(),
            Command::SetParam { param, value } => self.set_param(param, value)?,
            Command::Init => {
                if !self.initialised {
                    self.initialised = true;
                    let p = &self.params;
                    let pieces = crate::engine::search::settings::builtin_egdb_pieces_within(
                        p.variant,
                        p.egdb_builtin,
                        p.egdb_pieces,
                    );
                    if pieces >= 2 {
                        // Without them the engine plays on as before: the error is
                        // said, and `ready` follows.
                        match make_session(p, true) {
                            Ok(s) => self.session = s,
                            Err(e) => self.out.error(&e),
                        }
                    }
                }
                if let Some(s) = self.session.egdb_summary() {
                    self.out.line(&format!("info egdb-found={}", quote(&s)));
                }
                self.out.line("ready")
            }
            Command::NewGame => self.session.new_game(),
            Command::Ping => self.out.line("pong"),
            Command::Quit => return Ok(Flow::Quit),
            Command::Stop | Command::PonderHit => {} // nothing is running
            Command::Pos {
                variant,
                start,
                moves,
            } => {
                if let Some(v) = variant {
                    if v != self.params.variant {
                        self.apply(Params {
                            variant: v,
                            ..self.params.clone()
                        })?;
                    }
                }
                self.session.set_position(&start?, &moves)?;
            }
            Command::Level(fields) => {
                for f in fields {
                    f.apply(&mut self.levels);
                }
            }
            Command::Go(mode) => self.go(mode),
            Command::Legal => self.out.line(&self.session.legal(self.params.format)),
            Command::Perft { depth: d } => {
                // A few seconds at most, so that the loop stays responsive.
                let max = match self.params.variant {
                    Variant::Dameo => 6,
                    Variant::Croda => 7,
                    _ => 12,
                };
                if d > max {
                    return Err(format!(
                        "perft depth {d} is too deep for the protocol in {} (at most {max}; use dama perft)",
                        self.params.variant
                    ));
                }
                self.out.line(&self.session.perft(d));
            }
            Command::Show => self.out.line(&self.session.show()),
            Command::Eval => self.out.line(&self.session.eval()),
        }
        Ok(Flow::Continue)
    }

    fn hello(&self) {
        self.out.line(&format!(
            "id name=dama version={} author={}",
            env!("CARGO_PKG_VERSION"),
            quote("the dama developers")
        ));
        for p in &params::PARAMS {
            self.out.line(&p.hub_line(&self.params));
        }
        self.out.line("wait");
    }

    /// `set-param`: stores the checked value, making a new session when the parameter
    /// asks for one.
    fn set_param(&mut self, param: &Param, value: Value) -> Result<(), String> {
        let mut next = self.params.clone();
        (param.set)(&mut next, value);
        match param.rebuild {
            Rebuild::Never => self.params = next,
            Rebuild::Always => self.apply(next)?,
            Rebuild::WhenChanged if next != self.params => self.apply(next)?,
            Rebuild::WhenChanged => {}
        }
        Ok(())
    }

    /// Rebuilds the session for new engine parameters; on failure nothing changes.
    fn apply(&mut self, params: Params) -> Result<(), String> {
        self.session = make_session(&params, self.initialised)?;
        self.params = params;
        Ok(())
    }

    fn go(&mut self, mode: Mode) {
        let mut limits = std::mem::take(&mut self.levels);
        let unlimited = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.time.is_none();
        if unlimited && !limits.infinite {
            if mode == Mode::Think {
                // No level: one second.
                limits.movetime = Some(Duration::from_secs(1));
            } else {
                limits.infinite = true;
            }
        }
        if mode == Mode::Think {
            if let (Some(t), Some(inc)) = (limits.time, limits.increment) {
                // Hub adds the increment before every move.
                limits.time = Some(t + inc);
            }
        }
        self.running = self.session.go(mode, limits, &self.params, &self.out);
    }
}

/// Runs the protocol on stdin/stdout until `quit` or the end of input.
pub fn run_stdio() -> i32 {
    let out = Out::new(Box::new(std::io::stdout()));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || reader(std::io::stdin().lock(), tx));
    let mut hub = Hub::new(out);
    for msg in rx {
        match msg {
            Input::Line(l) => {
                if hub.handle(&l) == Flow::Quit {
                    break;
                }
            }
            Input::TooLong(n) => hub.out.error(&format!(
                "line too long ({n} bytes; the limit is {MAX_LINE})"
            )),
            Input::Eof => break,
        }
    }
    // quit and end of input leave at once, even during a search.
    if let Some(r) = &hub.running {
        r.stop();
    }
    0
}
