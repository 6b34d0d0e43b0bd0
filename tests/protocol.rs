//! Scripted protocol sessions against the built binary (`dama hub`): every command,
//! every error case, whole games per variant, stop latency, ping during a search, and
//! the strict parsing of `info` and `done` that pydraughts does.

mod common;

use dama::fen::parse_fen;
use dama::game::Game;
use dama::protocol::hubpos::parse_any_move;
use dama::{movegen, with_variant, Position, Rules, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    fn start() -> Hub {
        // Databases the developer built must not change these sessions.
        let mut child = common::bin::command_without_databases()
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start dama hub");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Hub {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&self) -> String {
        match self.lines.recv_timeout(Duration::from_secs(30)) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no reply within 30 s"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Sends `line` and returns the single reply.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.next()
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.next();
            let stop = l.starts_with(prefix);
            v.push(l);
            if stop {
                return v;
            }
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The start position's score by `R`'s shipped network and by the classic evaluation,
/// as the protocol writes scores.
fn start_scores<R: Rules>() -> (String, String) {
    let start = Position::<R>::start();
    let net = dama::eval::Evaluation::shipped_net::<R>().expect("every variant ships a network");
    let classic = dama::eval::Evaluation::classic::<R>();
    (
        dama::protocol::score_text(net.evaluate(&start)),
        dama::protocol::score_text(classic.evaluate(&start)),
    )
}

/// pydraughts' parsing: split at spaces outside quotes, every token `name=value`.
fn strict_fields(args: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in args.chars() {
        if c == '"' {
            quoted = !quoted;
            cur.push(c);
        } else if c == ' ' && !quoted {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter()
        .map(|t| {
            let parts: Vec<&str> = t.split('=').collect();
            assert_eq!(parts.len(), 2, "token '{t}' is not exactly name=value");
            (parts[0].to_string(), parts[1].trim_matches('"').to_string())
        })
        .collect()
}

fn check_info(line: &str) {
    let args = line.strip_prefix("info ").expect("info line");
    let f = strict_fields(args);
    for (k, v) in &f {
        match k.as_str() {
            "depth" | "seldepth" | "nodes" | "nps" | "hashfull" | "multipv" | "egdb-dtc"
            | "egdb-hits" => {
                v.parse::<u64>()
                    .unwrap_or_else(|_| panic!("{k}={v} in {line}"));
            }
            "score" | "time" => {
                v.parse::<f64>()
                    .unwrap_or_else(|_| panic!("{k}={v} in {line}"));
            }
            "pv" => {}
            "egdb" => assert!(["win", "draw", "loss"].contains(&v.as_str()), "{line}"),
            other => panic!("unexpected field {other} in {line}"),
        }
    }
    let score: f64 = f
        .iter()
        .find(|(k, _)| k == "score")
        .unwrap()
        .1
        .parse()
        .unwrap();
    assert!(score.abs() <= 100.0, "{line}");
}

fn check_done(line: &str) -> (String, Option<String>) {
    let args = line.strip_prefix("done ").expect("done with a move");
    let f = strict_fields(args);
    assert_eq!(f[0].0, "move", "done's first token must be move=: {line}");
    assert!(f.len() <= 2);
    (f[0].1.clone(), f.get(1).map(|p| p.1.clone()))
}

#[test]
fn handshake_and_parameters() {
    let mut h = Hub::start();
    h.send("hub");
    let lines = h.until("wait");
    assert!(lines[0].starts_with("id name=dama version="), "{lines:?}");
    for name in [
        "variant",
        "threads",
        "hash",
        "ponder",
        "multipv",
        "move-format",
        "evaluation",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("param name={name} "))),
            "{name}"
        );
    }
    for l in &lines[1..lines.len() - 1] {
        // Every param line parses strictly.
        strict_fields(l.strip_prefix("param ").unwrap());
    }
    h.send("set-param name=variant value=checkers");
    h.send("set-param name=threads value=2");
    h.send("set-param name=hash value=8");
    h.send("set-param name=multipv value=2");
    h.send("set-param name=ponder value=true");
    h.send("set-param name=move-format value=path");
    assert_eq!(h.ask("init"), "ready");
    assert_eq!(h.ask("ping"), "pong");
    assert!(h.ask("show").starts_with("position variant=english "));
    // Aliases and unquoted multi-word values.
    h.send("set-param name=variant value=german");
    assert!(h.ask("show").starts_with("position variant=scandinavian "));
    h.send("set-param name=variant value=boyer parton");
    assert!(h.ask("show").starts_with("position variant=boyer-parton "));
    // Evaluations: classic, a model file that is not there, a file that is no model.
    h.send("set-param name=variant value=english");
    h.send("set-param name=evaluation value=classic");
    h.send("pos pos=B:W18,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    let classic = h.ask("eval");
    assert!(classic.starts_with("eval score="), "{classic}");
    h.send("set-param name=evaluation value=nn");
    let nn = h.ask("eval");
    assert!(
        nn.starts_with("eval score=") && nn != classic,
        "{nn} {classic}"
    );
    // evaluation=nn carries over to every variant: each ships a network, and the
    // start position's score is the one that variant's network gives, not the classic
    // evaluation's.
    for v in Variant::ALL {
        h.send(&format!("set-param name=variant value={v}"));
        assert!(h.ask("show").starts_with(&format!("position variant={v} ")));
        let (net, classic) = with_variant!(v, R => start_scores::<R>());
        assert_ne!(net, classic, "{v}: the test needs scores that differ");
        assert_eq!(h.ask("eval"), format!("eval score={net} quiet=true"), "{v}");
    }
    // A model file does not carry over to another variant: the change is refused and
    // nothing changes.
    h.send("set-param name=variant value=english");
    let english = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/models/english.nnue");
    h.send(&format!("set-param name=evaluation value={english}"));
    h.send("pos pos=B:W18,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    assert!(h.ask("eval").starts_with("eval score="));
    let e = h.ask("set-param name=variant value=boyer-parton");
    assert!(
        e.contains("the model is for english, not boyer-parton"),
        "{e}"
    );
    assert!(h.ask("show").starts_with("position variant=english "));
    h.send("set-param name=evaluation value=default");
    h.send("set-param name=variant value=boyer-parton");
    assert!(h.ask("show").starts_with("position variant=boyer-parton "));
    h.send("set-param name=variant value=english");
    let e = h.ask("set-param name=evaluation value=/nonexistent/dama.nnue");
    assert!(
        e.starts_with("error message=") && e.contains("nonexistent"),
        "{e}"
    );
    let e = h.ask("set-param name=evaluation value=Cargo.toml");
    assert!(e.contains("not a dama model file"), "{e}");
    assert_eq!(h.ask("ping"), "pong");
}

#[test]
fn positions_legal_perft_show_eval() {
    let mut h = Hub::start();
    h.send("pos start variant=english");
    assert_eq!(
        h.ask("legal"),
        "legal count=7 moves=\"10-14 10-15 11-15 11-16 12-16 9-13 9-14\""
    );
    assert_eq!(
        h.ask("perft depth=4").split(" time=").next().unwrap(),
        "perft depth=4 nodes=1469"
    );
    // Hub position string, PDN FEN, moves in path, Hub and bare forms.
    h.send("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 22-18 15x22 25x18\"");
    let s = h.ask("show");
    assert!(s.contains("side=black"), "{s}");
    assert!(s.contains("reversible=0 since-capture=0"), "{s}");
    h.send("pos fen=W:WK18:B6,7,14,15");
    assert_eq!(h.ask("legal"), "legal count=1 moves=18x18x6x7x14x15");
    h.send("set-param name=move-format value=path");
    assert_eq!(h.ask("legal"), "legal count=1 moves=18x11x2x9x18");
    h.send("pos pos=W:WK18:B6,7,14,15 moves=18x18x15x14x7x6");
    assert!(h.ask("show").contains("fen=B:WK18:B hub="));
    h.send("pos variant=dameo start moves=\"e3-e4 e6-e5\"");
    let s = h.ask("show");
    assert!(s.starts_with("position variant=dameo fen=W:"), "{s}");
    let legal = h.ask("legal");
    assert!(legal.contains("e4xe6"), "{legal}");
    let e = h.ask("eval");
    assert!(e.starts_with("eval score="), "{e}");
    strict_fields(e.strip_prefix("eval ").unwrap());
    let show = h.ask("show");
    strict_fields(show.strip_prefix("position ").unwrap());
}

#[test]
fn errors_leave_the_state_unchanged() {
    let mut h = Hub::start();
    h.send("pos start variant=scandinavian");
    let before = h.ask("show");
    for bad in [
        "frobnicate now",
        "pos fen=W:Wa2:Bb8",
        "pos pos=Wxyz",
        "set-param name=threads value=zero",
        "set-param name=hash value=0",
        "set-param name=variant value=chess",
        "set-param name=nonsense value=1",
        "level depth=deep",
        "level move-time=-3",
        "go sideways",
        "perft depth=x",
        "perft depth=40",
        "set-param name=hash value=100000",
        "pos",
        "pos fen=\"W:Wa1",
    ] {
        let r = h.ask(bad);
        assert!(r.starts_with("error message="), "{bad}: {r}");
        strict_fields(r.strip_prefix("error ").unwrap());
        assert_eq!(h.ask("show"), before, "{bad} changed the state");
    }
    // Perft depth is capped per variant so that the loop stays responsive.
    h.send("pos start variant=dameo");
    assert!(h
        .ask("perft depth=7")
        .starts_with("error message=\"perft depth 7 is too deep"));
    h.send("pos start variant=scandinavian");
    // A 100 kB line and binary bytes: one error each, and the engine goes on.
    let long = format!("pos fen={}\n", "a".repeat(100_000));
    h.send_bytes(long.as_bytes());
    assert!(h.next().contains("line too long"));
    h.send_bytes(b"\x00\xff\xfe\x01\x02 garbage\n");
    assert!(h.next().starts_with("error message="));
    assert_eq!(h.ask("ping"), "pong");
    assert_eq!(h.ask("show"), before);
    // An illegal move: error, and the position stays at the last legal ply.
    h.send("pos start moves=\"c3-d4 f6-g5 d4-e5 a1-b2\"");
    assert_eq!(
        h.next(),
        "error message=\"illegal move a1-b2 at ply 4: illegal move 'a1-b2': a capture is compulsory (G2)\""
    );
    let s = h.ask("show");
    assert!(
        s.contains("fen=B:") && s.contains("side=black"),
        "after 3 plies Black is to move: {s}"
    );
    // Ambiguous bare capture.
    h.send("pos fen=W:W22:B9,10,17,18 variant=english");
    let r = h.ask("pos fen=W:W22:B9,10,17,18 moves=22x6");
    assert!(
        r.starts_with("error message=\"illegal move 22x6 at ply 1: ambiguous"),
        "{r}"
    );
}

#[test]
fn think_info_and_done_parse_strictly() {
    let mut h = Hub::start();
    h.send("pos start variant=english");
    h.send("level depth=6");
    h.send("go think");
    let lines = h.until("done");
    assert!(lines.len() >= 2);
    for l in &lines[..lines.len() - 1] {
        check_info(l);
    }
    let (mv, ponder) = check_done(lines.last().unwrap());
    let pos = Position::<dama::rules::English>::start();
    let m = parse_any_move(&pos, &mv).expect("legal best move");
    if let Some(p) = ponder {
        assert!(parse_any_move(&pos.play(&m), &p).is_ok());
    }
    // Levels were used up by that search: the next go uses the default.
    h.send("level move-time=0.05");
    h.send("go think");
    let t = Instant::now();
    h.until("done");
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn no_legal_move_answers_error_and_bare_done() {
    let mut h = Hub::start();
    h.send("pos fen=W:W29:B22,25 variant=english");
    h.send("go think");
    assert!(h.next().starts_with("error message="));
    assert_eq!(h.next(), "done");
}

#[test]
fn forced_win_score_is_100_minus_plies() {
    let mut h = Hub::start();
    h.send("pos fen=W:WKa1:Bh6 variant=scandinavian");
    h.send("level depth=8");
    h.send("go think");
    let lines = h.until("done");
    let last_info = &lines[lines.len() - 2];
    assert!(last_info.contains(" score=99.97 "), "{last_info}");
    assert!(lines.last().unwrap().starts_with("done move=a1-f6"));
}

#[test]
fn stop_during_infinite_and_ping_during_search() {
    let mut h = Hub::start();
    h.send("pos start variant=dameo");
    h.send("level infinite");
    h.send("go analyze");
    assert!(h.next().starts_with("info "));
    h.send("ping");
    let replies = h.until("pong");
    assert!(
        replies
            .iter()
            .all(|l| l.starts_with("info ") || l == "pong"),
        "{replies:?}"
    );
    let t = Instant::now();
    h.send("stop");
    let lines = h.until("done");
    let latency = t.elapsed();
    assert!(check_done(lines.last().unwrap()).0.contains('-'));
    // The search is infinite, so any bound shows that `stop` ended it; the bound is
    // loose so that a loaded machine does not fail the test.
    assert!(latency < Duration::from_secs(5), "stop took {latency:?}");
    eprintln!("stop latency {latency:?}");
    // ponder, then ponder-hit with a clock: the search ends by itself.
    h.send("pos start variant=english");
    h.send("level time=0.2 inc=0");
    h.send("go ponder");
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(300) {
        if let Ok(l) = h.lines.recv_timeout(Duration::from_millis(10)) {
            assert!(
                !l.starts_with("done"),
                "a ponder search waits for ponder-hit"
            );
        }
    }
    h.send("ponder-hit");
    let t = Instant::now();
    h.until("done");
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn another_command_during_a_search_stops_it_first() {
    let mut h = Hub::start();
    h.send("pos start variant=croda");
    h.send("level infinite");
    h.send("go analyze");
    assert!(h.next().starts_with("info "));
    h.send("show");
    let lines = h.until("position ");
    assert!(
        lines.iter().any(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
}

#[test]
fn analyze_with_multipv_prints_one_line_per_line_of_play() {
    let mut h = Hub::start();
    h.send("set-param name=multipv value=3");
    h.send("pos start variant=english");
    h.send("level depth=5");
    h.send("go analyze");
    let lines = h.until("done");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info multipv={k} depth=5 "))),
            "multipv {k}: {lines:?}"
        );
    }
    for l in &lines[..lines.len() - 1] {
        check_info(l);
    }
}

fn self_play<R: Rules>(variant: Variant) {
    let mut h = Hub::start();
    h.send(&format!("set-param name=variant value={variant}"));
    h.send("set-param name=move-format value=path");
    let start = Position::<R>::start();
    let mut game = Game::new(start);
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..300 {
        if game.outcome().is_some() {
            break;
        }
        h.send(&format!(
            "pos fen={} moves=\"{}\"",
            dama::fen::to_fen(&start),
            moves.join(" ")
        ));
        h.send("level depth=3");
        h.send("go think");
        let lines = h.until("done");
        let (mv, _) = check_done(lines.last().unwrap());
        let m = dama::notation::parse_move(game.position(), &mv)
            .unwrap_or_else(|e| panic!("{variant}: {mv}: {e}"));
        assert!(movegen::legal_moves(game.position()).contains(&m));
        game.play(&m);
        moves.push(mv);
    }
    let _ = parse_fen::<R>(&dama::fen::to_fen(game.position())).unwrap();
}

#[test]
fn a_whole_game_per_variant() {
    for v in Variant::ALL {
        with_variant!(v, R => self_play::<R>(v));
    }
}

#[test]
fn quit_and_end_of_input_exit_at_once() {
    let mut h = Hub::start();
    h.send("pos start variant=dameo");
    h.send("level infinite");
    h.send("go analyze");
    let _ = h.next();
    h.send("quit");
    let t = Instant::now();
    let status = h.child.wait().unwrap();
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_secs(5));
    let mut h = Hub::start();
    drop(std::mem::replace(&mut h.stdin, {
        // Close stdin by replacing it with a fresh pipe's writer that we drop.
        let mut c = Command::new("true").stdin(Stdio::piped()).spawn().unwrap();
        let s = c.stdin.take().unwrap();
        let _ = c.wait();
        s
    }));
    let t = Instant::now();
    let status = h.child.wait().unwrap();
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// Endgame databases through the protocol: `egdb-path` finds the slices (one line at
/// `init` says which), `info` lines carry the root's database value and the hits, and
/// `egdb-pieces=0` turns them off.
#[test]
fn endgame_databases_in_the_protocol() {
    let databases = common::egdb::english_three_pieces("hub-egdb");
    let dir = databases.path();
    let mut h = Hub::start();
    h.send("hub");
    let hello = h.until("wait");
    assert!(hello.iter().any(|l| l.starts_with("param name=egdb-path ")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("param name=egdb-pieces value=8 ")));
    h.send("set-param name=variant value=english");
    h.send(&format!("set-param name=egdb-path value={}", dir.display()));
    h.send("init");
    let lines = h.until("ready");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info egdb-found=") && lines[0].contains("complete to 3 pieces"),
        "{lines:?}"
    );
    // Two kings against one: won; the database says so, with its distance.
    h.send("pos fen=W:WK30,K26:BK4");
    h.send("level depth=6");
    h.send("go think");
    let lines = h.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    for l in &infos {
        check_info(l);
        assert!(l.contains(" egdb=win egdb-dtc=11"), "{l}");
        assert!(l.contains(" egdb-hits="), "{l}");
        assert!(
            l.contains(" score=86.9"),
            "a 3-piece database win scores 90 - 3 - dtc/1000: {l}"
        );
    }
    assert!(!infos.is_empty());
    // Off: the same search without databases finds the win by itself.
    h.send("set-param name=egdb-pieces value=0");
    h.send("init");
    assert_eq!(h.next(), "ready");
    h.send("pos fen=W:WK30,K26:BK4");
    h.send("level depth=14");
    h.send("go think");
    let lines = h.until("done");
    for l in lines.iter().filter(|l| l.starts_with("info")) {
        check_info(l);
        assert!(!l.contains("egdb"), "{l}");
    }
    let e = h.ask("set-param name=egdb-pieces value=9");
    assert!(e.starts_with("error message="), "{e}");
}

/// The variant's small databases solved in memory when the directory has none
/// (scandinavian: every slice of up to 4 pieces): `init` says so, the search gives the
/// root's database value (the same as `dama egdb probe` on built files: three kings
/// against one win in 18 plies to the capture, or draw when the lone king holds the long
/// diagonal), and `egdb-builtin=false` turns them off. English solves none.
#[test]
fn builtin_databases_in_the_protocol() {
    let mut h = Hub::start();
    h.send("hub");
    let hello = h.until("wait");
    assert!(hello
        .iter()
        .any(|l| l == "param name=egdb-builtin value=true type=bool"));
    h.send("set-param name=variant value=scandinavian");
    h.send("init");
    let lines = h.until("ready");
    assert_eq!(
        lines,
        [
            "info egdb-found=\"23 slices of scandinavian, complete to 4 pieces (largest 4), solved in memory\"",
            "ready"
        ]
    );
    for (fen, value) in [
        ("W:WKc3,Kd2,Ke1:BKh2", " egdb=win egdb-dtc=18 "),
        ("W:WKc1,Ke1,Kg1:BKh8", " egdb=draw "),
    ] {
        h.send(&format!("pos fen={fen}"));
        h.send("level depth=4");
        h.send("go think");
        let lines = h.until("done");
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
        assert!(!infos.is_empty());
        for l in infos {
            check_info(l);
            assert!(l.contains(value), "{fen}: {l}");
        }
    }
    // A session made again after `init` (here for the hash) keeps them, solved once.
    h.send("set-param name=hash value=16");
    h.send("pos fen=W:WKc1,Ke1,Kg1:BKh8");
    h.send("level depth=4");
    h.send("go think");
    let lines = h.until("done");
    assert!(lines.iter().any(|l| l.contains(" egdb=draw ")), "{lines:?}");
    // Off: no line at `init`, no database value.
    h.send("set-param name=egdb-builtin value=false");
    h.send("init");
    assert_eq!(h.next(), "ready");
    h.send("pos fen=W:WKc3,Kd2,Ke1:BKh2");
    h.send("level depth=4");
    h.send("go think");
    for l in h.until("done").iter().filter(|l| l.starts_with("info")) {
        assert!(!l.contains("egdb"), "{l}");
    }
    // English solves none: `init` prints `ready` alone.
    h.send("set-param name=egdb-builtin value=true");
    h.send("set-param name=variant value=english");
    h.send("init");
    assert_eq!(h.next(), "ready");
}

/// `skill` and `seed` are listed with their ranges; values out of range are refused
/// with the range, and the old value stays.
#[test]
fn skill_and_seed_are_listed_and_checked() {
    let mut h = Hub::start();
    h.send("hub");
    let lines = h.until("wait");
    assert!(lines.contains(&"param name=skill value=10 type=int min=1 max=10".to_string()));
    assert!(lines.contains(&"param name=seed value=0 type=int min=0 max=4294967295".to_string()));
    for (value, error) in [
        ("0", "skill 0 is out of range 1-10"),
        ("11", "skill 11 is out of range 1-10"),
        ("-3", "skill '-3' is not a valid number"),
        ("strong", "skill 'strong' is not a valid number"),
    ] {
        assert_eq!(
            h.ask(&format!("set-param name=skill value={value}")),
            format!("error message=\"{error}\"")
        );
    }
    assert_eq!(
        h.ask("set-param name=seed value=4294967296"),
        "error message=\"seed '4294967296' is not a valid number\""
    );
    h.send("set-param name=skill value=4");
    h.send("set-param name=skill value=12");
    h.next();
    h.send("hub");
    let lines = h.until("wait");
    assert!(lines.contains(&"param name=skill value=4 type=int min=1 max=10".to_string()));
}

/// A whole game per variant through the protocol, the level changing every move (1, 2,
/// ... 10, 1, ...): every move is legal.
#[test]
fn every_level_plays_a_whole_game_per_variant() {
    for v in Variant::ALL {
        with_variant!(v, R => {
            let mut h = Hub::start();
            h.send(&format!("set-param name=variant value={v}"));
            h.send("set-param name=move-format value=path");
            let mut game = Game::new(Position::<R>::start());
            let mut moves: Vec<String> = Vec::new();
            while game.outcome().is_none() && moves.len() < 300 {
                h.send(&format!("set-param name=skill value={}", moves.len() % 10 + 1));
                h.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
                h.send("level move-time=0.02");
                h.send("go think");
                let lines = h.until("done");
                let (mv, _) = check_done(lines.last().unwrap());
                let m = dama::notation::parse_move(game.position(), &mv)
                    .unwrap_or_else(|e| panic!("{v}: {mv}: {e}"));
                assert!(movegen::legal_moves(game.position()).contains(&m), "{v}: {mv}");
                game.play(&m);
                moves.push(mv);
            }
        });
    }
}

/// The moves of `plies` plies of english self-play at `skill` with `seed`, in a fresh
/// engine (each level's node budget ends its searches, so they do not depend on the
/// machine's speed).
fn level_game(skill: u32, seed: u32, plies: usize) -> Vec<String> {
    let mut h = Hub::start();
    h.send(&format!("set-param name=skill value={skill}"));
    h.send(&format!("set-param name=seed value={seed}"));
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        h.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
        h.send("level move-time=60");
        h.send("go think");
        let lines = h.until("done");
        moves.push(check_done(lines.last().unwrap()).0);
    }
    moves
}

/// With a fixed seed a level plays the same game; with another seed another game.
#[test]
fn a_seed_makes_a_level_reproducible() {
    let a = level_game(2, 5, 24);
    assert_eq!(a, level_game(2, 5, 24));
    assert_ne!(a, level_game(2, 6, 24));
}

/// `go analyze` ignores the level: the same lines at level 1 as at level 10.
#[test]
fn analyze_is_at_full_strength_whatever_the_level() {
    let run = |skill: u32| {
        let mut h = Hub::start();
        h.send(&format!("set-param name=skill value={skill}"));
        h.send("pos start moves=\"11-15 23-19\"");
        h.send("level depth=9");
        h.send("go analyze");
        h.until("done")
            .into_iter()
            .map(|l| {
                // Times differ from run to run.
                l.split(' ')
                    .filter(|f| !f.starts_with("time=") && !f.starts_with("nps="))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
    };
    let full = run(10);
    assert_eq!(full.len(), 10, "{full:?}");
    assert_eq!(run(1), full);
}

/// At a level, `go ponder` answers only after `ponder-hit` (or `stop`), and then at
/// once: the level's budget bounds its search, not the clock.
#[test]
fn a_level_ponders_until_ponder_hit() {
    let mut h = Hub::start();
    h.send("set-param name=skill value=3");
    for end in ["ponder-hit", "stop"] {
        h.send("pos start moves=\"11-15\"");
        h.send("level time=600 inc=0");
        h.send("go ponder");
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(300) {
            if let Ok(l) = h.lines.recv_timeout(Duration::from_millis(10)) {
                assert!(!l.starts_with("done"), "{end}: a ponder search waits");
            }
        }
        h.send(end);
        let lines = h.until("done");
        assert!(
            check_done(lines.last().unwrap()).0.contains('-'),
            "{end}: {lines:?}"
        );
    }
}
