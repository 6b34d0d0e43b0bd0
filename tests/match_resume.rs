//! `dama match` survives interruption: a match killed (SIGKILL) in the middle leaves a
//! PDN of whole games only; one interrupted (SIGINT) prints the table so far and exits
//! with 130; `--resume` finishes it with the same tally as an uninterrupted run (also
//! from a half-played pair); a corrupt or foreign PDN is refused.
//!
//! The engines are `dama hub` at fixed depths (1 against 2), one thread: each game is
//! a function of its opening and colours, so runs can be compared game by game.

mod common;

use common::bin::{dama, dama_path};
use dama::game::Game;
use dama::pdn::{parse_pdn, PdnGame};
use dama::{notation::parse_move, rules::Dameo, Position};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh path in the temporary folder for this test.
fn temp_pdn(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("dama-resume-{name}-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// The match's arguments: dameo, depth 2 against depth 1, `games` games.
fn match_args(games: usize, pdn: &Path, extra: &[&str]) -> Vec<String> {
    let engine = format!("{} hub", dama_path());
    let mut v: Vec<String> = [
        "match",
        "--variant",
        "dameo",
        "--engine",
        &engine,
        "--option",
        "hash=4",
        "--engine",
        &engine,
        "--option",
        "hash=4",
        "--option",
        "tc=depth=1",
        "--tc",
        "depth=2",
        "--adjudicate",
        "max-plies=150",
        "--concurrency",
        "2",
        "--seed",
        "1",
        "--games",
        &games.to_string(),
        "--pdn",
        pdn.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

/// `args` with `flag`'s value replaced.
fn set(mut args: Vec<String>, flag: &str, value: &str) -> Vec<String> {
    let i = args.iter().position(|a| a == flag).expect(flag);
    args[i + 1] = value.to_string();
    args
}

fn spawn(args: &[String]) -> Child {
    common::bin::command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start dama match")
}

/// Waits until the PDN holds at least `n` games (a minute at most).
fn wait_for_games(pdn: &Path, n: usize) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(60) {
        let text = std::fs::read_to_string(pdn).unwrap_or_default();
        if text.matches("[Round ").count() >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{}: fewer than {n} games after a minute", pdn.display());
}

/// Waits for the process to end (twenty seconds at most) and returns its exit code.
fn wait_exit(child: &mut Child) -> Option<i32> {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(20) {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    panic!("the match did not end within 20 s");
}

/// Each game is whole: it has a result (in the tag and after the moves) and a
/// termination, and its moves replay legally in dameo.
fn check_whole(games: &[PdnGame]) {
    for g in games {
        let result = g.tag("Result").expect("Result tag");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{g:?}");
        assert_eq!(g.result, result, "{g:?}");
        assert!(g.tag("Termination").is_some(), "{g:?}");
        let mut game = Game::new(Position::<Dameo>::start());
        for m in &g.moves {
            let mv = parse_move(game.position(), m).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert!(game.play(&mv));
        }
    }
}

/// The lines of the final table that a resumed match must reproduce.
fn table(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("wins ") || l.starts_with("elo ") || l.starts_with("ended:"))
        .map(str::to_string)
        .collect()
}

/// The games of a PDN by round, without the date.
fn by_round(text: &str) -> Vec<(String, Vec<String>, String)> {
    let mut v: Vec<_> = parse_pdn(text)
        .into_iter()
        .map(|g| {
            (
                g.tag("Round").unwrap().to_string(),
                g.moves.clone(),
                g.result.clone(),
            )
        })
        .collect();
    v.sort_by_key(|(r, _, _)| r.parse::<usize>().unwrap());
    v
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok, "kill {sig}");
}

#[test]
fn a_killed_match_leaves_only_whole_games() {
    let pdn = temp_pdn("kill");
    let mut child = spawn(&match_args(40, &pdn, &[]));
    wait_for_games(&pdn, 3);
    child.kill().expect("SIGKILL"); // no chance to clean up
    let _ = child.wait();
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap());
    let _ = std::fs::remove_file(&pdn);
    assert!(games.len() >= 3 && games.len() < 40, "{}", games.len());
    check_whole(&games);
}

#[test]
fn sigint_prints_the_table_so_far_and_exits_130_then_resume_matches_a_full_run() {
    let games = 10;
    // The reference: an uninterrupted run.
    let full = temp_pdn("full");
    let (code, full_out, err) = dama(&match_args(games, &full, &[]));
    assert_eq!(code, 0, "{err}");
    let full_text = std::fs::read_to_string(&full).unwrap();
    let _ = std::fs::remove_file(&full);

    // Interrupted after a few games.
    let pdn = temp_pdn("int");
    let args = match_args(games, &pdn, &[]);
    let mut child = spawn(&args);
    wait_for_games(&pdn, 2);
    signal(&child, "-INT");
    let code = wait_exit(&mut child);
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    assert_eq!(code, Some(130), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let played = parse_pdn(&text);
    check_whole(&played);
    let n = played.len();
    assert!(
        out.contains(&format!("(dameo, {n} games)")),
        "the table counts the {n} games of the PDN: {out}"
    );
    assert!(out.contains("wins ") && out.contains("elo "), "{out}");
    assert!(
        out.contains(&format!("interrupted after {n} of {games} games")),
        "{out}"
    );

    // Resumed: the same games and the same table as the uninterrupted run.
    let mut resume = args.clone();
    resume.push("--resume".into());
    let (code, out, err) = dama(&resume);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("resuming: {n} of {games} games")),
        "{err}"
    );
    assert_eq!(table(&out), table(&full_out), "{out}\n---\n{full_out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    check_whole(&parse_pdn(&text));
    assert_eq!(by_round(&text), by_round(&full_text));

    // A half-played pair: rounds 1-3 only (the second game of pair 2 missing).
    let half = temp_pdn("half");
    let first3: String = parse_pdn(&full_text)
        .into_iter()
        .filter(|g| ["1", "2", "3"].contains(&g.tag("Round").unwrap()))
        .map(|g| g.to_text())
        .collect();
    std::fs::write(&half, &first3).unwrap();
    let (code, out, err) = dama(&match_args(games, &half, &["--resume"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(table(&out), table(&full_out), "{out}\n---\n{full_out}");
    let text = std::fs::read_to_string(&half).unwrap();
    let _ = std::fs::remove_file(&half);
    assert_eq!(by_round(&text), by_round(&full_text));

    // The same half-played match saved by a Windows editor (a byte-order mark, CRLF):
    // read by the same reader as every PDN, it resumes alike.
    let windows = temp_pdn("windows");
    std::fs::write(
        &windows,
        format!("\u{feff}{}", first3.replace('\n', "\r\n")),
    )
    .unwrap();
    let (code, out, err) = dama(&match_args(games, &windows, &["--resume"]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming: 3 of 10 games"), "{err}");
    assert_eq!(table(&out), table(&full_out), "{out}\n---\n{full_out}");
    let text = std::fs::read_to_string(&windows).unwrap();
    let _ = std::fs::remove_file(&windows);
    assert_eq!(by_round(&text), by_round(&full_text));
}

#[test]
fn a_corrupt_or_foreign_pdn_is_refused() {
    let games = 4;
    let pdn = temp_pdn("ref");
    let (code, _, err) = dama(&match_args(games, &pdn, &[]));
    assert_eq!(code, 0, "{err}");
    let good = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    // Each case: the file's text, extra arguments, and what the message must name.
    let last_game_cut = &good[..good.len() - 12];
    let illegal: String = {
        let mut gs = parse_pdn(&good);
        let last = gs[0].moves.len() - 1;
        gs[0].moves[last] = "h8xa1".into();
        gs.iter().map(PdnGame::to_text).collect()
    };
    fn same(a: Vec<String>) -> Vec<String> {
        a
    }
    type Change = fn(Vec<String>) -> Vec<String>;
    let cases: Vec<(String, Change, &str)> = vec![
        (last_game_cut.to_string(), same, "not whole"),
        ("just some text\n".to_string(), same, "no Round tag"),
        (illegal, same, "is not legal"),
        (good.clone(), |a| set(a, "--seed", "5"), "opening"),
        (good.clone(), |a| set(a, "--tc", "depth=3"), "time control"),
        (
            good.clone(),
            |a| set(a, "--games", "2"),
            "this match has 2 games",
        ),
        (
            good.replace("[Variant \"dameo\"]", "[Variant \"croda\"]"),
            same,
            "variant",
        ),
        (
            good.replace("(hash=4,tc=Depth(1))", "(hash=8,tc=Depth(1))"),
            same,
            "engine",
        ),
    ];
    for (i, (text, change, expect)) in cases.into_iter().enumerate() {
        let path = temp_pdn(&format!("ref{i}"));
        std::fs::write(&path, &text).unwrap();
        let mut args = change(match_args(games, &path, &[]));
        args.push("--resume".into());
        let (code, out, err) = dama(&args);
        let after = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(code, 2, "case {i}: {out}{err}");
        assert!(
            err.contains("cannot resume") && err.contains(expect),
            "case {i}: expected '{expect}' in: {err}"
        );
        assert_eq!(
            after, text,
            "case {i}: a refused resume leaves the file alone"
        );
    }
    // The full file with the right command line: nothing left to play.
    std::fs::write(&pdn, &good).unwrap();
    let mut args = match_args(games, &pdn, &[]);
    let (code, _, err) = dama(&args);
    assert_eq!(code, 2, "without --resume a file with games is kept: {err}");
    assert!(err.contains("--resume"), "{err}");
    args.push("--resume".into());
    let (code, out, err) = dama(&args);
    let _ = std::fs::remove_file(&pdn);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(dameo, 4 games)"), "{out}");
}
