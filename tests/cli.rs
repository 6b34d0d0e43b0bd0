//! The `dama` binary: perft output format, divide order, thread independence, errors, a
//! closed standard output.

mod common;

use common::bin::{command, dama};
use std::process::Stdio;

/// The `key=value` fields of perft's last line.
fn last_line_fields(stdout: &str) -> Vec<(String, String)> {
    let last = stdout.lines().last().expect("some output");
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("perft"), "{last}");
    words
        .map(|w| {
            let (k, v) = w.split_once('=').expect("name=value");
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn perft_last_line_has_depth_nodes_time_nps() {
    let (code, out, _) = dama(&["perft", "--variant", "dameo", "--depth", "3"]);
    assert_eq!(code, 0);
    let f = last_line_fields(&out);
    let keys: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["depth", "nodes", "time", "nps"]);
    assert_eq!(f[0].1, "3");
    assert_eq!(f[1].1, "135930");
    assert!(f[2].1.parse::<f64>().is_ok());
    assert!(f[3].1.parse::<u64>().is_ok());
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn perft_divide_is_sorted_and_sums_to_the_total() {
    let (code, out, _) = dama(&["perft", "--variant", "english", "--depth", "3", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let moves: Vec<(&str, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let (m, n) = l.split_once(' ').unwrap();
            (m, n.parse().unwrap())
        })
        .collect();
    let names: Vec<&str> = moves.iter().map(|m| m.0).collect();
    assert_eq!(
        names,
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    assert_eq!(moves.iter().map(|m| m.1).sum::<u64>(), 302);
    assert!(lines.last().unwrap().contains("nodes=302"));
}

#[test]
fn perft_counts_do_not_depend_on_threads() {
    for (variant, fen, depth) in [
        ("scandinavian", "W:WKa1,c3,e3:Bd6,f6,Kh8,b8", "5"),
        ("dameo", "W:Wa1,b2,c3,d2,Ke4:Ba8,b7,c6,Kd5,h8", "4"),
        ("english", "B:W21-32:B1-12", "8"),
    ] {
        let mut seen = Vec::new();
        for threads in ["1", "2", "3"] {
            let (code, out, err) = dama(&[
                "perft",
                "--variant",
                variant,
                "--fen",
                fen,
                "--depth",
                depth,
                "--divide",
                "--threads",
                threads,
            ]);
            assert_eq!(code, 0, "{err}");
            let without_time: Vec<String> = out
                .lines()
                .map(|l| l.split(" time=").next().unwrap().to_string())
                .collect();
            seen.push(without_time);
        }
        assert_eq!(seen[0], seen[1], "{variant} threads 1 vs 2");
        assert_eq!(seen[0], seen[2], "{variant} threads 1 vs 3");
    }
}

#[test]
fn perft_paths_counts_capture_paths() {
    // The english king loop: one move, two paths.
    let (_, moves, _) = dama(&[
        "perft",
        "-v",
        "english",
        "--fen",
        "W:WK18:B6,7,14,15",
        "-d",
        "1",
    ]);
    let (_, paths, _) = dama(&[
        "perft",
        "-v",
        "english",
        "--fen",
        "W:WK18:B6,7,14,15",
        "-d",
        "1",
        "--paths",
        "--divide",
    ]);
    assert!(moves.contains("nodes=1"), "{moves}");
    assert!(paths.contains("nodes=2"), "{paths}");
    assert!(paths.contains("18x11x2x9x18 1"), "{paths}");
    assert!(paths.contains("18x9x2x11x18 1"), "{paths}");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let (code, _, err) = dama(&[
        "perft",
        "--variant",
        "english",
        "--fen",
        "W:Wa2:B1",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("a2 is a light square"), "{err}");
    assert!(!err.contains("panicked"));
    let (code, _, err) = dama(&["perft", "--variant", "go", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variant 'go'"), "{err}");
    let (code, _, _) = dama(&["perft", "--variant", "english"]);
    assert_eq!(code, 2);
    let (code, out, _) = dama(&["perft", "--variant", "checkers", "--depth", "0"]);
    assert_eq!(code, 0);
    assert!(out.contains("nodes=1"));
}

#[test]
fn help_explains_variants_and_fen() {
    let (code, out, _) = dama(&["--help"]);
    assert_eq!(code, 0);
    for word in [
        "dameo",
        "croda",
        "scandinavian",
        "boyer-parton",
        "english",
        "W:Wa1,c1,Ke5:Bb8,Kd8",
    ] {
        assert!(out.contains(word), "{word} missing from --help");
    }
    let (_, out, _) = dama(&["perft", "--help"]);
    assert!(out.contains("Examples:"));
}

/// `dama analyze ... | head -1`: output closed by its reader ends the run quietly with
/// the status of a broken pipe (141), not a panic and its backtrace. The pipe is closed
/// before the first line is written, so every write fails.
#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    for args in [
        &["analyze", "--variant", "english", "--depth", "6"][..],
        &["analyze", "--variant", "dameo", "--depth", "4"][..],
    ] {
        let mut child = command()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start dama");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait for dama");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
    }
}
