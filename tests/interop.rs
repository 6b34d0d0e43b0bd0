//! Interoperability with pydraughts: `tests/interop/pydraughts_game.py` plays a whole
//! english game against `dama hub` through pydraughts' HubEngine, which must accept
//! every move dama sends. Skipped, with a note, where `python3` or the `pydraughts`
//! package is missing (`.ci/run` installs pydraughts).

mod common;

use std::process::Command;

#[test]
fn pydraughts_plays_a_whole_game_against_dama() {
    let probe = Command::new("python3")
        .args(["-c", "import draughts"])
        .output();
    match probe {
        Err(e) => {
            eprintln!("python3 not found ({e}): pydraughts interop test skipped");
            return;
        }
        Ok(out) if !out.status.success() => {
            eprintln!(
                "pydraughts is not importable (python3 -m pip install pydraughts): \
                 interop test skipped\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        Ok(_) => {}
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/interop/pydraughts_game.py"
    );
    let (code, out, err) = common::bin::run(
        Command::new("python3")
            .arg(script)
            .arg(common::bin::dama_path())
            // Databases the developer built must not change the game.
            .env("DAMA_EGDB_DIR", "/nonexistent/dama-egdb"),
    );
    let tail: Vec<&str> = out.lines().rev().take(5).collect();
    assert_eq!(code, 0, "{tail:?}\n{err}");
    let result = out
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .unwrap_or_else(|| panic!("no RESULT line: {tail:?}\n{err}"));
    eprintln!("{result}");
}
