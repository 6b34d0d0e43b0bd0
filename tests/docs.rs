//! The documentation: every `console` example of README.md and docs/ prints what it shows
//! (trycmd; `console,ignore,deep` blocks in the deep tier), the Hub and serve sessions
//! (`console,ignore,session`) run as written, and every relative link of README.md,
//! protocol.md and docs/ leads to a file, and a heading, that exists (docs/testing.md).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DAMA: &str = env!("CARGO_BIN_EXE_dama");

/// The documents whose examples and links are checked: README.md, protocol.md and every
/// page under docs/.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut docs = vec![root.join("README.md"), root.join("protocol.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                docs.push(path);
            }
        }
    }
    docs.sort();
    docs
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The opening fence's info string of each code block, with the block's lines and the
/// line number (from 1) of its first line.
fn code_blocks(text: &str) -> Vec<(String, usize, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, usize, Vec<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((info.trim().to_string(), i + 2, Vec::new())),
            }
        } else if let Some((_, _, lines)) = current.as_mut() {
            lines.push(line.to_string());
        }
    }
    blocks
}

#[derive(Clone, Copy, PartialEq)]
enum Tier {
    Quick,
    Deep,
}

/// A scratch copy of `doc` for trycmd, line for line (so trycmd's line numbers are the
/// document's), beside a `.in` directory that holds docs/examples/ and in which the
/// commands run. For the deep tier the `console,ignore,deep` blocks become `console`
/// and the quick ones `text`. `None` when the document has no example of the tier.
fn scratch(doc: &Path, tier: Tier, dir: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(doc).unwrap();
    let wanted = match tier {
        Tier::Quick => "console",
        Tier::Deep => "console,ignore,deep",
    };
    if !code_blocks(&text).iter().any(|(info, _, _)| info == wanted) {
        return None;
    }
    let mut copy = String::new();
    for line in text.lines() {
        let line = match (tier, line.trim_end()) {
            (Tier::Deep, "```console") => "```text",
            (Tier::Deep, "```console,ignore,deep") => "```console",
            _ => line,
        };
        copy.push_str(line);
        copy.push('\n');
    }
    let name = relative(doc).replace('/', "-");
    let case = dir.join(&name);
    std::fs::write(&case, copy).unwrap();
    let input = case.with_extension("in");
    copy_dir(
        &Path::new(ROOT).join("docs/examples"),
        &input.join("docs/examples"),
    );
    Some(case)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A fresh directory under target/ for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("doc-examples")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The environment of every example: the built dama first on the PATH (a match runs
/// `dama hub`), and a database directory that is empty, whatever the machine holds.
fn example_env(dir: &Path) -> (String, String) {
    let bin_dir = Path::new(DAMA).parent().unwrap().display().to_string();
    let path = format!("{bin_dir}:{}", std::env::var("PATH").unwrap_or_default());
    let egdb = dir.join("no-egdb");
    std::fs::create_dir_all(&egdb).unwrap();
    (path, egdb.display().to_string())
}

fn run_examples(tier: Tier, name: &str) {
    let dir = fresh_dir(name);
    let (path, egdb) = example_env(&dir);
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("dama", Path::new(DAMA))
        .env("PATH", path)
        .env("DAMA_EGDB_DIR", egdb);
    let mut any = false;
    for doc in documents() {
        if let Some(case) = scratch(&doc, tier, &dir) {
            cases.case(case);
            any = true;
        }
    }
    assert!(any, "no examples found");
    cases.run();
}

#[test]
fn examples() {
    run_examples(Tier::Quick, "quick");
}

#[test]
#[ignore = "deep tier: a 4-piece database build and its verification"]
fn deep_examples() {
    run_examples(Tier::Deep, "deep");
}

/// Whether `actual` is the line `expected`, where `[..]` stands for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// One step of a session: a line typed, a line expected (`...`: any lines up to the
/// next expected one), or Ctrl-C.
enum Step {
    Send(String),
    Expect(String),
    Interrupt,
}

/// Runs the session of a `console,ignore,session` block: `$ dama ...`, then lines typed
/// (`> `), lines expected (`< `, or any other line) and `^C`.
fn run_session(place: &str, lines: &[String]) {
    let args: Vec<&str> = lines[0]
        .strip_prefix("$ dama ")
        .unwrap_or_else(|| panic!("{place}: a session starts with `$ dama`"))
        .split_whitespace()
        .collect();
    let steps: Vec<Step> = lines[1..]
        .iter()
        .map(|l| {
            if let Some(typed) = l.strip_prefix("> ") {
                Step::Send(typed.to_string())
            } else if let Some(printed) = l.strip_prefix("< ") {
                Step::Expect(printed.to_string())
            } else if l == "^C" {
                Step::Interrupt
            } else {
                Step::Expect(l.clone())
            }
        })
        .collect();
    let dir = fresh_dir(&place.replace(['/', ':', '.'], "-"));
    let (path, egdb) = example_env(&dir);
    let mut child = Command::new(DAMA)
        .args(&args)
        .current_dir(&dir)
        .env("PATH", path)
        .env("DAMA_EGDB_DIR", egdb)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        BufReader::new(out)
            .lines()
            .map_while(Result::ok)
            .for_each(|l| drop(tx.send(l)))
    });
    std::thread::spawn(move || {
        BufReader::new(err)
            .lines()
            .map_while(Result::ok)
            .for_each(|l| drop(tx2.send(l)))
    });
    let mut stdin = child.stdin.take();
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let next_line = |seen: &mut Vec<String>, wanted: &str| -> String {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                line
            }
            Err(_) => panic!(
                "{place}: waiting for `{wanted}`, the session printed:\n{}",
                seen.join("\n")
            ),
        }
    };
    let mut skipping = false;
    for step in &steps {
        match step {
            Step::Expect(e) if e == "..." => skipping = true,
            Step::Expect(e) => loop {
                let line = next_line(&mut seen, e);
                if line_matches(e, &line) {
                    skipping = false;
                    break;
                }
                assert!(
                    skipping,
                    "{place}: expected `{e}`, got `{line}`; the session printed:\n{}",
                    seen.join("\n")
                );
            },
            Step::Send(typed) => {
                skipping = false;
                let input = stdin.as_mut().expect("stdin open");
                writeln!(input, "{typed}").unwrap();
                input.flush().unwrap();
            }
            Step::Interrupt => {
                skipping = false;
                // As a person would: a moment after the last line. (dama serve prints its
                // address just before it installs its Ctrl-C handler.)
                std::thread::sleep(Duration::from_millis(500));
                let status = Command::new("kill")
                    .args(["-INT", &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(status.success(), "{place}: kill -INT failed");
            }
        }
    }
    drop(stdin.take());
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{place}: dama exited with {status}");
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{place}: dama did not exit at the end of the session");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sessions() {
    let mut count = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (info, line, lines) in code_blocks(&text) {
            if info == "console,ignore,session" {
                run_session(&format!("{}:{line}", relative(&doc)), &lines);
                count += 1;
            }
        }
    }
    assert!(
        count >= 3,
        "the Hub and serve sessions of README.md and docs/board.md: {count}"
    );
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces
/// made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated one gets `-1`, `-2`, ...).
fn anchors(text: &str) -> HashSet<String> {
    let mut set = HashSet::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            let base = slug(line.trim_start_matches('#'));
            let mut anchor = base.clone();
            let mut n = 0;
            while set.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            set.insert(anchor);
        }
    }
    set
}

/// The targets of the inline links `[text](target)` and images of a Markdown text,
/// outside code blocks and code spans, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // Drop code spans, where `](` is text.
        let mut plain = String::new();
        for (k, piece) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(piece);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            found.push((i + 1, rest[..end].trim().to_string()));
            rest = &rest[end..];
        }
    }
    found
}

#[test]
fn relative_links_point_to_files_that_exist() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(path)
            };
            if !file.exists() {
                bad.push(format!("{}:{line}: {target}: no such file", relative(&doc)));
                continue;
            }
            if let Some(fragment) = fragment {
                if file.extension().is_some_and(|e| e == "md") {
                    let anchors = anchors(&std::fs::read_to_string(&file).unwrap());
                    if !anchors.contains(fragment) {
                        bad.push(format!(
                            "{}:{line}: {target}: no such heading",
                            relative(&doc)
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 20, "links checked: {checked}");
    assert!(
        bad.is_empty(),
        "links that lead nowhere:\n{}",
        bad.join("\n")
    );
}

#[test]
fn readme_keeps_the_test_command_and_stays_short() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    assert!(
        readme.lines().any(|l| l == "cargo test --release"),
        "README.md lost the test command"
    );
    assert!(readme
        .lines()
        .any(|l| l == "cargo run --release -- serve --open"));
    assert!(
        readme.lines().count() <= 260,
        "README.md: {} lines",
        readme.lines().count()
    );
}
