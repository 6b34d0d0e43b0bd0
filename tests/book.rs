//! Opening books: every shipped book reads, holds the start position, and every move in
//! it is legal in its position; a book file round-trips, and a damaged, truncated or
//! foreign one is refused with the line; `dama book build` makes the same book on one
//! thread and on two, and a build interrupted with Ctrl-C and resumed makes the book of a
//! build without interruption; with `book=builtin` the Hub engine's first move is a book
//! move at once, and with `book=none` it searches exactly as with no book parameter.

mod common;

use common::bin::{command_without_databases, run};
use dama::engine::book::{fnv1a64, Book};
use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::{movegen, Position, Rules};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dama-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn check_builtin<R: Rules>() {
    let book = Book::<R>::builtin();
    assert!(book.len() >= 100, "{}: {} positions", R::NAME, book.len());
    assert!(
        book.command.starts_with("dama book build --variant "),
        "{}",
        book.command
    );
    let start = book
        .probe(&Position::<R>::start())
        .expect("the start position");
    assert!(start.len() >= 2, "{}: several moves at the start", R::NAME);
    for (pos, moves) in book.positions() {
        let legal = movegen::legal_moves(pos);
        for m in moves {
            assert!(legal.contains(&m.mv), "{}: an illegal book move", R::NAME);
            assert!(m.score.abs() < 30_000);
        }
        assert!(
            moves.windows(2).all(|w| w[0].score >= w[1].score),
            "best first"
        );
    }
    // The file round-trips.
    let back = Book::<R>::parse(&book.to_text()).unwrap();
    assert_eq!(back.to_text(), book.to_text());
}

#[test]
fn the_shipped_books_hold_only_legal_moves() {
    check_builtin::<English>();
    check_builtin::<Scandinavian>();
    check_builtin::<BoyerParton>();
    check_builtin::<Dameo>();
    check_builtin::<Croda>();
}

/// A file with its checksum made right after an edit, as a forger would.
fn resealed(text: &str) -> String {
    let body_end = text.trim_end().rfind('\n').unwrap() + 1;
    let body = &text[..body_end];
    format!("{body}# fnv1a64 {:016x}\n", fnv1a64(body.as_bytes()))
}

#[test]
fn damaged_truncated_and_foreign_books_are_refused_with_the_line() {
    let text = Book::<English>::builtin().to_text();
    // One byte changed in the middle.
    let mut bytes = text.clone().into_bytes();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == b'1' { b'2' } else { b'1' };
    let e = Book::<English>::parse(std::str::from_utf8(&bytes).unwrap()).unwrap_err();
    assert!(e.contains("checksum does not match"), "{e}");
    // Cut off.
    let e = Book::<English>::parse(&text[..text.len() / 2]).unwrap_err();
    assert!(e.contains("not whole") || e.contains("checksum"), "{e}");
    // Another variant's book.
    let e = Book::<Scandinavian>::parse(&text).unwrap_err();
    assert!(
        e.contains("line 2: a book of english, not scandinavian"),
        "{e}"
    );
    // An illegal move, with the checksum made to match: the line is named.
    let lines: Vec<&str> = text.lines().collect();
    let fifth = lines[4];
    let bad = fifth.replacen(" | ", " | 1-5 +0 1 | ", 1);
    let forged = resealed(&text.replacen(fifth, &bad, 1));
    let e = Book::<English>::parse(&forged).unwrap_err();
    assert!(e.starts_with("line 5: move 1-5"), "{e}");
    // A position twice.
    let twice = resealed(&text.replacen(fifth, &format!("{fifth}\n{fifth}"), 1));
    let e = Book::<English>::parse(&twice).unwrap_err();
    assert!(e.contains("line 6: the position comes twice"), "{e}");
    // Through the command line: the file is named.
    let dir = temp("refused");
    let f = dir.join("bad.book");
    std::fs::write(&f, &forged).unwrap();
    let (code, _, err) = run(command_without_databases().args([
        "book",
        "probe",
        "--variant",
        "english",
        "--book",
        f.to_str().unwrap(),
    ]));
    assert_eq!(code, 2);
    assert!(err.contains("bad.book: line 5"), "{err}");
}

/// `dama book build` of a small english book into `dir/name`, with `extra` arguments.
fn build_command(dir: &std::path::Path, name: &str, extra: &[&str]) -> Command {
    let out = dir.join(name);
    let mut c = command_without_databases();
    c.args([
        "book",
        "build",
        "--variant",
        "english",
        "--depth",
        "5",
        "--lines",
        "3",
        "--out",
    ])
    .arg(out)
    .args(extra);
    c
}

fn build(dir: &std::path::Path, name: &str, extra: &[&str]) -> (i32, String, String) {
    run(&mut build_command(dir, name, extra))
}

#[test]
fn a_build_is_the_same_on_any_threads_and_after_an_interrupted_resume() {
    let dir = temp("build");
    let (code, _, err) = build(&dir, "one.book", &["--positions", "40", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = build(&dir, "two.book", &["--positions", "40", "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    let one = std::fs::read_to_string(dir.join("one.book")).unwrap();
    assert_eq!(one, std::fs::read_to_string(dir.join("two.book")).unwrap());
    assert!(
        !dir.join("one.book.part").exists(),
        "the journal is removed when done"
    );
    let book = Book::<English>::parse(&one).unwrap();
    assert_eq!(book.len(), 40);
    // Every book position but the start is reached by a book move of another.
    let reached: std::collections::HashSet<u64> = book
        .positions()
        .flat_map(|(p, ms)| ms.iter().map(move |m| p.play(&m.mv).hash()))
        .collect();
    for (p, _) in book.positions().skip(1) {
        assert!(reached.contains(&p.hash()));
    }
    // An existing book is not overwritten.
    let (code, _, err) = build(&dir, "one.book", &["--positions", "40"]);
    assert_eq!(code, 2);
    assert!(err.contains("--resume"), "{err}");

    // Interrupted once the journal holds a batch, then resumed.
    let out = dir.join("cut.book");
    let part = dir.join("cut.book.part");
    let child = build_command(&dir, "cut.book", &["--positions", "40", "--threads", "1"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&part).map_or(0, |t| t.lines().count()) < 6
        && started.elapsed().as_secs() < 60
    {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait_with_output().unwrap().status.code();
    assert!(matches!(status, Some(0) | Some(130)), "{status:?}");
    if status == Some(130) {
        assert!(!out.exists() && part.exists());
        let (code, _, err) = build(&dir, "cut.book", &["--positions", "40", "--resume"]);
        assert_eq!(code, 0, "{err}");
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), one);
    // A journal with only its header goes on from nothing; other settings are refused.
    let header = "# dama book 1\n# variant english\n# command dama book build --variant english \
                  --positions 40 --depth 5 --lines 3 --max-ply 20 --margin 0.25 --ply-cost 0.04\n";
    std::fs::write(dir.join("x.book.part"), header).unwrap();
    let (code, _, err) = build(
        &dir,
        "x.book",
        &["--positions", "40", "--resume", "--ply-cost", "0.1"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("same settings"), "{err}");
    let (code, _, err) = build(&dir, "x.book", &["--positions", "40", "--resume"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("x.book")).unwrap(), one);
    // No journal: nothing to resume.
    let (code, _, err) = build(&dir, "y.book", &["--positions", "40", "--resume"]);
    assert_eq!(code, 2);
    assert!(err.contains("no unfinished build"), "{err}");
}

/// A Hub session with the built binary.
struct Hub {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Hub {
    fn start() -> Hub {
        let mut child = Command::new(common::bin::dama_path())
            .arg("hub")
            .env("DAMA_EGDB_DIR", "/nonexistent/dama-egdb")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        Hub { child, out }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(self.out.read_line(&mut l).unwrap() > 0, "end of output");
            let l = l.trim_end().to_string();
            let done = l.starts_with(prefix);
            lines.push(l);
            if done {
                return lines;
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

fn moves_of_done(line: &str) -> String {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("move="))
        .unwrap()
        .to_string()
}

#[test]
fn with_the_book_the_first_move_is_a_book_move_and_without_it_the_search_is_as_ever() {
    let book = Book::<English>::builtin();
    let start = Position::<English>::start();
    let texts: Vec<String> = book
        .probe(&start)
        .unwrap()
        .iter()
        .map(|m| dama::notation::move_text(&start, &m.mv))
        .collect();
    let mut h = Hub::start();
    h.send("hub");
    let listing = h.until("wait");
    assert!(listing
        .iter()
        .any(|l| l.starts_with("param name=book value=none ")));
    h.send("set-param name=book value=builtin");
    h.send("init");
    h.until("ready");
    h.send("pos start variant=english");
    // A level no search would finish: the book answers at once, without info lines.
    h.send("level depth=60");
    h.send("go think");
    let lines = h.until("done");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(moves_of_done(&lines[0]), texts[0], "the best book move");
    // With a margin, some book move.
    h.send("set-param name=book-margin value=100");
    for _ in 0..5 {
        h.send("level depth=60");
        h.send("go think");
        let l = h.until("done");
        assert!(texts.contains(&moves_of_done(&l[0])), "{l:?}");
    }
    // Analysis searches.
    h.send("level depth=3");
    h.send("go analyze");
    assert!(h.until("done").len() > 1);
    // A bad book file is an error and the old book stays.
    h.send("set-param name=book value=/nonexistent/dama.book");
    let e = h.until("error");
    assert!(
        e.last().unwrap().contains("/nonexistent/dama.book"),
        "{e:?}"
    );
    h.send("level depth=60");
    h.send("go think");
    assert_eq!(h.until("done").len(), 1);

    // book=none searches exactly as a session that never heard of books.
    let search = |set_none: bool| {
        let mut h = Hub::start();
        if set_none {
            h.send("set-param name=book value=none");
        }
        h.send("pos start variant=english");
        h.send("level depth=8");
        h.send("go think");
        let lines = h.until("done");
        let nodes: Vec<String> = lines
            .iter()
            .filter_map(|l| {
                l.split_whitespace()
                    .find(|w| w.starts_with("nodes="))
                    .map(str::to_string)
            })
            .collect();
        (nodes, lines.last().unwrap().clone())
    };
    let (a, done_a) = search(false);
    let (b, done_b) = search(true);
    assert_eq!(a.len(), 8, "a search to depth 8");
    assert_eq!(a, b);
    assert_eq!(done_a, done_b);
}
