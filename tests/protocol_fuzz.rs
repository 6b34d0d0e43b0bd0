//! Protocol fuzzing: random and hostile sessions sent to `dama hub` on stdin, from a
//! fixed seed and a fixed number of cases (reproducible, a few seconds): binary bytes,
//! lines past the length limit, every command with broken arguments, and `go`, `stop`,
//! `ponder-hit` and `ping` in every order. After each session the engine must still
//! run, have answered every `ping` it was sent with a `pong`, answer one more, and
//! leave on `quit`.

mod common;

use dama::protocol::syntax::parse_line;
use dama::protocol::MAX_LINE;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The seed of every run.
const SEED: [u8; 32] = *b"dama protocol fuzz, fixed seed!!";
/// Sessions per run.
const CASES: u32 = 48;

/// Commands of protocol.md's summary (section 9) and a few that do not exist. `quit`
/// is left out: it ends the session on purpose.
const COMMANDS: &[&str] = &[
    "hub",
    "set-param",
    "init",
    "new-game",
    "pos",
    "level",
    "go",
    "ponder-hit",
    "stop",
    "ping",
    "legal",
    "perft",
    "show",
    "eval",
    "uci",
    "",
    "=",
    "go=think",
];

/// Argument names the commands read, and some they do not.
const NAMES: &[&str] = &[
    "name",
    "value",
    "depth",
    "nodes",
    "move-time",
    "time",
    "inc",
    "moves",
    "infinite",
    "start",
    "variant",
    "pos",
    "fen",
    "think",
    "ponder",
    "analyze",
    "threads",
    "hash",
    "multipv",
    "move-format",
    "",
];

/// Values that are wrong, at the edges, or right in the wrong place. Numbers stay
/// small enough that a valid one costs little (no 16 GiB table, no deep perft).
const VALUES: &[&str] = &[
    "",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "64",
    "300",
    "0.01",
    "1e400",
    "-0",
    "NaN",
    "inf",
    "99999999999999999999",
    "abc",
    "\"",
    "\"unterminated",
    "\"a b c\"",
    "true",
    "maybe",
    "hub",
    "path",
    "threads",
    "hash",
    "variant",
    "dameo",
    "croda",
    "english",
    "scandinavian",
    "boyer-parton",
    "checkers",
    "start",
    "W:W:B",
    "W:Wa1:Bb8",
    "B:W21-32:B1-12",
    "W:WKa1,Ka1:B",
    "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
    "xyz",
    "11-15",
    "\"11-15 23-19\"",
    "e2-e3",
    "\"e2-e3 d7-d6\"",
    "a1xa1",
    "1-2",
    "\"9-14 23-18 14x23x18\"",
];

/// One line of a session, as bytes (a newline is added when it has none).
fn line() -> impl Strategy<Value = Vec<u8>> {
    let word = |pool: &'static [&'static str]| {
        prop_oneof![
            4 => proptest::sample::select(pool).prop_map(str::to_string),
            1 => "[ -~]{0,12}",
        ]
    };
    let broken_command = (
        word(COMMANDS),
        proptest::collection::vec((word(NAMES), proptest::option::of(word(VALUES))), 0..4),
    )
        .prop_map(|(c, args)| {
            let mut s = c;
            for (n, v) in args {
                s.push(' ');
                s.push_str(&n);
                if let Some(v) = v {
                    s.push('=');
                    s.push_str(&v);
                }
            }
            s.into_bytes()
        });
    let search_control = proptest::sample::select(vec![
        "go think",
        "go ponder",
        "go analyze",
        "go",
        "go think ponder",
        "stop",
        "stop",
        "ponder-hit",
        "ping",
        "level depth=1",
        "level depth=64",
        "level move-time=0.01",
        "level time=0.05 inc=0.01",
        "level infinite",
        "level nodes=1",
        "pos start",
        "pos start variant=dameo",
        "new-game",
        "set-param name=threads value=2",
        "set-param name=multipv value=3",
    ])
    .prop_map(|s| s.as_bytes().to_vec());
    let binary = proptest::collection::vec(any::<u8>(), 0..300);
    let huge =
        (MAX_LINE - 10..MAX_LINE * 2, any::<u8>(), word(COMMANDS)).prop_map(|(len, b, c)| {
            let mut v = c.into_bytes();
            v.push(b' ');
            v.resize(len, b.max(b' '));
            v
        });
    prop_oneof![
        6 => broken_command,
        6 => search_control,
        2 => binary,
        1 => huge,
    ]
}

/// Splits what was sent into lines as the engine's reader does; `quit` lines become
/// `qxit`, so that only the final `quit` ends a session.
fn sanitize(session: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for l in session {
        bytes.extend_from_slice(l);
        if l.last() != Some(&b'\n') {
            bytes.push(b'\n');
        }
    }
    let mut i = 0;
    while i + 4 <= bytes.len() {
        if &bytes[i..i + 4] == b"quit" {
            bytes[i + 1] = b'x';
        }
        i += 1;
    }
    bytes
}

/// The `ping` lines in `bytes`, counted as the engine reads them: lines split at
/// newlines, those over [`MAX_LINE`] skipped, the rest parsed.
fn pings(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| l.len() <= MAX_LINE)
        .filter(|l| {
            matches!(parse_line(&String::from_utf8_lossy(l)), Ok(Some(p)) if p.command == "ping")
        })
        .count()
}

/// Runs one session; an error says what went wrong.
fn session(lines: &[Vec<u8>]) -> Result<(), String> {
    let bytes = sanitize(lines);
    let expected = pings(&bytes) + 1;
    let mut child = common::bin::command()
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("start: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).split(b'\n') {
            let Ok(l) = l else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let result = (|| {
        stdin
            .write_all(&bytes)
            .and_then(|_| stdin.write_all(b"ping\n"))
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("the engine stopped reading: {e}"))?;
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut pongs = 0;
        while pongs < expected {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(l) if l.trim_ascii() == b"pong" => pongs += 1,
                Ok(_) => {}
                Err(e) => {
                    return Err(format!(
                        "{pongs} pongs of {expected} ({e:?}); alive: {:?}",
                        child.try_wait().map(|s| s.is_none())
                    ))
                }
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the engine exited: {status}"));
        }
        stdin
            .write_all(b"quit\n")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("quit: {e}"))?;
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = child.try_wait() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Err("the engine did not leave on quit".to_string())
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}

#[test]
fn hostile_sessions_leave_the_engine_alive_and_answering() {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        max_shrink_iters: 64,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &SEED));
    let started = Instant::now();
    let result = runner.run(&proptest::collection::vec(line(), 1..30), |lines| {
        session(&lines).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the fuzz run took {:?}",
        started.elapsed()
    );
}

#[test]
fn the_ping_count_follows_the_engine_reader() {
    assert_eq!(pings(b"ping\nping x=1\n pong\n\n  ping  \n"), 3);
    let mut long = b"ping ".to_vec();
    long.resize(MAX_LINE + 5, b'a');
    long.push(b'\n');
    assert_eq!(pings(&long), 0);
    assert_eq!(sanitize(&[b"quit".to_vec()]), b"qxit\n");
}
