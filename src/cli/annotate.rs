//! `dama annotate`: every move of every game of a PDN file rated, written as PDN with
//! comments and marks, or as JSON lines.

use super::parse_variant;
use crate::atomic_file::Appender;
use crate::cli::progress::Progress;
use crate::engine::time::Limits;
use crate::notation::parse_move;
use crate::pdn::{parse_pdn, read_game, PastEnd, PdnEntry};
use crate::play::annotation::{
    annotated_pdn, json_lines, notes, summary, verdicts, Label, PlayerSummary, SideSummary,
    BLUNDER, DECIDED, INACCURACY, MISTAKE,
};
use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(super) const ANNOTATE_HELP: &str = "\
Every position of every game is searched once (--movetime, default 1000 ms, or --depth
or --nodes), with the game's history before it. A move's score is that of the position
it leads to, from the mover's view; its loss is the best move's score less the move's,
both held within +/-3 men first (past that the game is decided), and 0 when the move
played is the best. Labels by loss: inaccuracy ?! from 0.25 men, mistake ? from 0.50,
blunder ?? from 1.00. Scores are from the side to move's view.
The PDN written keeps each game's tags (Annotator set), puts a summary of each side in a
comment before the first move, and after each move its mark and a comment:
  11-16?? {-1.20 blunder; best 9-14 +0.05; database draw}
the move's score (or 'win in N' / 'loss in N' plies when forced), the label, the best
move and its score when it was another, and the databases' value of the position before
the move where they hold it. --json writes one JSON object a line per move instead
(docs/books-annotation.md documents the fields), and the summaries go to stderr.
At the end, stderr has a table by player (the White and Black tags): each player's
games together, the average loss a move and the marks a game.
Games are written whole as each is done. Ctrl-C stops at once and keeps the games
written; the same command with --resume goes on after them (with --depth or --nodes and
one thread, a resumed file is byte for byte the file of a run without interruption). A
game that does not read (an illegal move, a bad FEN, another variant) is reported with
the move that fails and skipped; the exit code is then 1.
Examples:
  dama annotate games.pdn --depth 14 --out games-annotated.pdn
  dama annotate games.pdn --variant dameo --movetime 500 --json > moves.jsonl";

/// Arguments of `dama annotate`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes", "movetime"])))]
pub struct AnnotateArgs {
    /// The PDN file of games.
    pub pdn: PathBuf,
    /// Rule set (default: the first game's Variant or GameType tag).
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Search each position this many milliseconds (the default: 1000).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search each position to this depth instead.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search each position this many nodes instead.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads (Lazy SMP).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// One JSON object a line per move instead of PDN.
    #[arg(long)]
    pub json: bool,
    /// The file to write (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Go on with --out: keep its whole games and annotate the rest.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// The evaluation: default, classic, nn, or the path of a model file.
    #[arg(long, default_value = "default")]
    pub evaluation: String,
    /// Endgame-database directory (default: $DAMA_EGDB_DIR, else ~/.local/share/dama/egdb).
    #[arg(long)]
    pub egdb_dir: Option<PathBuf>,
    /// Probe the databases for positions of at most this many pieces (0: never).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub egdb_pieces: u32,
    /// Do not solve the variant's small endgame databases in memory when the directory
    /// lacks them (scandinavian: every slice of up to 4 pieces, about 4 s once).
    #[arg(long)]
    pub no_egdb_builtin: bool,
}

/// The exit code when some games were skipped.
const SKIPPED: i32 = 1;

/// Files larger than this show a bar while they are read before the searches.
const READ_BAR_BYTES: u64 = 1 << 20;

/// Reads the file up to its first game that reads and chooses the variant: the
/// boundary where the rules are fixed.
pub(super) fn start(args: &AnnotateArgs) -> i32 {
    let reader = match crate::pdn::open_pdn(&args.pdn) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut any = false;
    let mut named = None;
    for entry in reader {
        any = true;
        if let Ok(g) = entry.game {
            named = Some(g.variant());
            break;
        }
    }
    if !any {
        eprintln!("error: {}: no game in the file", args.pdn.display());
        return 2;
    }
    let Some(variant) = args.variant.or(named.flatten()) else {
        eprintln!(
            "error: {}: the first game names no variant (no Variant tag, nor GameType 21): \
             give --variant",
            args.pdn.display()
        );
        return 2;
    };
    crate::with_variant!(variant, R => run::<R>(args))
}

/// A game of the file that reads: its number, its name in messages, and its plies.
struct Readable {
    number: usize,
    name: String,
    plies: usize,
}

/// The game of a PDN entry in the variant `R`, or why it cannot be annotated.
fn entry_game<R: Rules>(entry: &PdnEntry) -> Result<crate::game::Game<R>, String> {
    let g = entry.game.as_ref().map_err(Clone::clone)?;
    if let Some(v) = g.variant().filter(|v| v.name() != R::NAME) {
        return Err(format!("it is {}, not {}", v.name(), R::NAME));
    }
    let game = read_game::<R, _, _, _>(g.tag("FEN"), &g.moves, parse_move::<R>, PastEnd::Allow)
        .map_err(|e| match e {
            crate::pdn::RecordError::Fen(e) => format!("its FEN tag: {e}"),
            e => e.by_ply(),
        })?;
    if game.moves().is_empty() {
        return Err("it has no move to annotate".to_string());
    }
    Ok(game)
}

/// Every game of the file read once, before any search: the games that read, and how
/// many do not (each reported with its number and line). A bar shows the reading of
/// a large file.
fn read_all<R: Rules>(args: &AnnotateArgs) -> Result<(Vec<Readable>, usize), String> {
    let size = std::fs::metadata(&args.pdn).map(|m| m.len()).unwrap_or(0);
    let bar = (size > READ_BAR_BYTES).then(|| Progress::new("annotate: reading", size, size / 10));
    let mut reader = crate::pdn::open_pdn(&args.pdn)?;
    let mut readable = Vec::new();
    let mut skipped = 0;
    while let Some(entry) = reader.next() {
        let name = game_name(&entry);
        match entry_game::<R>(&entry) {
            Ok(game) => readable.push(Readable {
                number: entry.number,
                name,
                plies: game.moves().len(),
            }),
            Err(e) => {
                let line = format!("annotate: {name}: {e}; skipped");
                match &bar {
                    Some(b) => b.println(&line),
                    None => eprintln!("{line}"),
                }
                skipped += 1;
            }
        }
        if let Some(b) = &bar {
            b.update(
                reader.bytes_read(),
                &format!("{} games", readable.len() + skipped),
            );
        }
    }
    if let Some(b) = &bar {
        b.update(size, &format!("{} games", readable.len() + skipped));
        b.finish();
    }
    Ok((readable, skipped))
}

/// A game as messages name it: `game 3 (line 40, White - Black)`.
fn game_name(entry: &PdnEntry) -> String {
    let (number, line) = (entry.number, entry.line);
    match entry
        .game
        .as_ref()
        .map(|g| (g.tag("White"), g.tag("Black")))
    {
        Ok((Some(w), Some(b))) => format!("game {number} (line {line}, {w} - {b})"),
        _ => format!("game {number} (line {line})"),
    }
}

/// The limit of every search, and its text.
fn limits(args: &AnnotateArgs) -> (Limits, String) {
    let mut l = Limits::default();
    let text = if let Some(d) = args.depth {
        l.depth = Some(d);
        format!("depth {d}")
    } else if let Some(n) = args.nodes {
        l.nodes = Some(n);
        format!("nodes {n}")
    } else {
        let ms = args.movetime.unwrap_or(1000);
        l.movetime = Some(std::time::Duration::from_millis(ms));
        format!("movetime {ms} ms")
    };
    (l, text)
}

fn run<R: Rules>(args: &AnnotateArgs) -> i32 {
    let fail = |e: String| {
        eprintln!("error: {e}");
        2
    };
    let (limits, limit) = limits(args);
    let mut annotator = format!("dama {} annotate, {limit}", env!("CARGO_PKG_VERSION"));
    if args.evaluation != "default" {
        annotator.push_str(&format!(", evaluation {}", args.evaluation));
    }
    // Every game read first: the bad ones are reported before any search.
    let (readable, skipped) = match read_all::<R>(args) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    // What an earlier run wrote.
    let mut done = 0;
    let mut out: Option<Appender> = None;
    if let Some(path) = &args.out {
        if args.resume && path.exists() {
            let kept = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => return fail(format!("{}: {e}", path.display())),
            };
            let (keep, count) = match written(&kept, args.json, &annotator, &limit, &readable) {
                Ok(k) => k,
                Err(e) => return fail(format!("{}: {e}", path.display())),
            };
            if keep < kept.len() {
                if let Err(e) = crate::atomic_file::write(path, &kept.as_bytes()[..keep]) {
                    return fail(e);
                }
            }
            done = count;
        } else if !args.resume && path.exists() {
            return fail(format!(
                "{} exists: give --resume to continue it, or remove it",
                path.display()
            ));
        }
        match Appender::open(path, false) {
            Ok(a) => out = Some(a),
            Err(e) => return fail(e),
        }
    }
    let todo = &readable[done..];
    let engine = super::analyze::engine_for::<R>(
        args.hash,
        args.threads,
        &args.evaluation,
        args.egdb_dir.as_deref(),
        args.egdb_pieces,
        !args.no_egdb_builtin,
    );
    let mut engine = match engine {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    eprintln!(
        "annotate: {} {} game{} to annotate ({done} already written), {limit}, {} thread(s)",
        R::NAME,
        todo.len(),
        if todo.len() == 1 { "" } else { "s" },
        args.threads
    );
    let interrupt = Arc::new(AtomicBool::new(false));
    if let Err(e) = super::matches::catch_signals(&interrupt) {
        return fail(e);
    }
    // The signal only sets the flag; this thread carries it to the running search.
    let stop = engine.stop_flag();
    let finished = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (interrupt, finished) = (Arc::clone(&interrupt), Arc::clone(&finished));
        std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                if interrupt.load(Ordering::Relaxed) {
                    stop.stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    };
    let total: usize = todo.iter().map(|r| r.plies + 1).sum();
    let bar = Progress::new("annotate: positions", total as u64, 100);
    let mut positions = 0;
    let mut code = if skipped > 0 { SKIPPED } else { 0 };
    let mut entries = match crate::pdn::open_pdn(&args.pdn) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    // Each player's games of this run together (by the names of the White and Black
    // tags), told at the end.
    let mut players: BTreeMap<String, PlayerSummary> = BTreeMap::new();
    for (written_games, todo) in todo.iter().enumerate() {
        // The file read again, game by game, so that memory holds one game at a time.
        let Some(entry) = entries.by_ref().find(|e| e.number == todo.number) else {
            code = fail(format!(
                "{}: the file changed while it was read",
                args.pdn.display()
            ));
            break;
        };
        let (Ok(source), Ok(game)) = (&entry.game, entry_game::<R>(&entry)) else {
            code = fail(format!(
                "{}: the file changed while it was read",
                args.pdn.display()
            ));
            break;
        };
        let (number, name, game) = (&todo.number, &todo.name, &game);
        let searched = |i: usize| {
            bar.update(
                (positions + i + 1) as u64,
                &format!("{name}, ply {i} of {}", game.moves().len()),
            )
        };
        let Some(v) = verdicts(&mut engine, game, &limits, &interrupt, searched) else {
            bar.finish();
            eprintln!(
                "annotate: interrupted in {name}; {} games written; the same command with \
                 --resume goes on",
                done + written_games
            );
            code = super::matches::INTERRUPTED;
            break;
        };
        positions += game.moves().len() + 1;
        let notes = notes(game, &v);
        let text = if args.json {
            json_lines(*number, game, &notes, &limit)
                .into_iter()
                .map(|l| l + "\n")
                .collect::<String>()
        } else {
            annotated_pdn(source, game, &notes, &annotator).to_text()
        };
        let sides = summary(&notes);
        bar.println(&format!(
            "annotate: {name}: white {}; black {}",
            side_line(&sides[0]),
            side_line(&sides[1])
        ));
        for (tag, side) in [("White", &sides[0]), ("Black", &sides[1])] {
            let player = players
                .entry(source.tag(tag).unwrap_or("?").to_string())
                .or_default();
            player.games += 1;
            player.sides.add(side);
        }
        let wrote = match out.as_mut() {
            Some(a) => a.append(&text),
            None => {
                use std::io::Write;
                let mut o = std::io::stdout().lock();
                o.write_all(text.as_bytes())
                    .and_then(|_| o.flush())
                    .map_err(|e| format!("standard output: {e}"))
            }
        };
        if let Err(e) = wrote {
            code = fail(e);
            break;
        }
    }
    bar.finish();
    finished.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    if !players.is_empty() {
        eprintln!("annotate: by player (the games of this run):");
        for (name, p) in &players {
            eprintln!("  {name}: {}", p.line());
        }
    }
    code
}

/// One side's summary on one line.
fn side_line(s: &SideSummary) -> String {
    let counts: Vec<String> = Label::ALL
        .iter()
        .map(|&l| format!("{} {}", s.count(l), l.mark()))
        .collect();
    format!(
        "average loss {:.2} over {} move{}, {}",
        s.average_loss(),
        s.moves,
        if s.moves == 1 { "" } else { "s" },
        counts.join(" ")
    )
}

/// The whole games at the start of an earlier run's output `text`: the length to keep
/// (a game torn by a crash is cut off) and how many of `readable` they are. Refused when
/// the file was made with other settings or from other games.
fn written(
    text: &str,
    json: bool,
    annotator: &str,
    limit: &str,
    readable: &[Readable],
) -> Result<(usize, usize), String> {
    if json {
        // Lines of one game after another; a game is whole when its `plies` lines are.
        let mut keep = 0;
        let mut pos = 0;
        let mut last_game = 0;
        let mut lines_of_game = 0;
        for line in text.split_inclusive('\n') {
            if !line.ends_with('\n') {
                break;
            }
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| {
                format!("line at byte {pos} is not JSON ({e}): not a file of --json")
            })?;
            let field = |k: &str| v.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
            if v.get("limit").and_then(|l| l.as_str()) != Some(limit) {
                return Err(format!(
                    "it was annotated with other settings than '{limit}': remove it or give \
                     them"
                ));
            }
            let (game, ply, plies) = (field("game") as usize, field("ply"), field("plies"));
            if game != last_game {
                last_game = game;
                lines_of_game = 0;
            }
            lines_of_game += 1;
            pos += line.len();
            if ply == plies && lines_of_game == plies {
                keep = pos;
            }
        }
        let last = text[..keep]
            .lines()
            .last()
            .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .and_then(|v| v.get("game").and_then(serde_json::Value::as_u64))
            .unwrap_or(0) as usize;
        let count = readable.iter().take_while(|r| r.number <= last).count();
        Ok((keep, count))
    } else {
        // Each game is its tags, a blank line, its moves and a blank line.
        let mut keep = 0;
        let mut blanks = 0;
        let mut count = 0;
        let mut from = 0;
        while let Some(i) = text[from..].find("\n\n") {
            let end = from + i + 2;
            blanks += 1;
            from = end;
            if blanks % 2 == 0 {
                let g = parse_pdn(&text[keep..end]);
                let whole = g.len() == 1 && !g[0].result.is_empty();
                if !whole {
                    break;
                }
                if g[0].tag("Annotator") != Some(annotator) {
                    return Err(format!(
                        "its game {} was annotated by '{}', not '{annotator}': remove the \
                         file or give its settings",
                        count + 1,
                        g[0].tag("Annotator").unwrap_or("?")
                    ));
                }
                match readable.get(count) {
                    Some(r) if r.plies == g[0].moves.len() => {}
                    _ => {
                        return Err(format!(
                            "its game {} is not the next game of the PDN file",
                            count + 1
                        ))
                    }
                }
                keep = end;
                count += 1;
            }
        }
        Ok((keep, count))
    }
}

// The help text above states these numbers.
const _: () = assert!(DECIDED == 300 && INACCURACY == 25 && MISTAKE == 50 && BLUNDER == 100);
