//! `dama annotate`: a man given away is a blunder (`??`) with the better move named and
//! the databases' value given; the PDN written reads back with the same moves (by dama's
//! reader, which the board uses); the JSON has one object per move; games that do not
//! read are reported with the move that fails and skipped while the rest are annotated;
//! a resumed run, after a torn write or a Ctrl-C, writes the file of a run without
//! interruption.

mod common;

use common::bin::{command_without_databases, run};
use dama::pdn::{parse_pdn, read_pdn_game};
use dama::rules::English;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dama-annotate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A man and a king against a king, a database win for White, thrown away: 22-18 lets
/// the black king take the man, and one king each is a draw.
const GIVEN_AWAY: &str = "[Event \"blunder\"]\n[White \"w\"]\n[Black \"b\"]\n[GameType \"21\"]\n\
    [FEN \"W:W22,K31:BK15\"]\n\n1. 22-18 15x22 *\n\n";

/// An opening of real play, to annotate besides.
const OPENING: &str = "[Event \"opening\"]\n[White \"w\"]\n[Black \"b\"]\n[GameType \"21\"]\n\n\
    1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1/2-1/2\n\n";

fn annotate(args: &[&str]) -> (i32, String, String) {
    run(command_without_databases().arg("annotate").args(args))
}

#[test]
fn a_man_given_away_is_a_blunder_with_the_better_move_and_the_database_value() {
    let dir = temp("blunder");
    let dbs = common::egdb::english_three_pieces("annotate-blunder");
    let pdn = dir.join("in.pdn");
    std::fs::write(&pdn, format!("{GIVEN_AWAY}{OPENING}")).unwrap();
    let egdb = dbs.path().to_str().unwrap();
    let (code, out, err) = annotate(&[pdn.to_str().unwrap(), "--depth", "8", "--egdb-dir", egdb]);
    assert_eq!(code, 0, "{err}");
    let games = parse_pdn(&out);
    assert_eq!(games.len(), 2, "{out}");
    let g = &games[0];
    assert_eq!(g.moves, vec!["22-18", "15x22"]);
    assert_eq!(g.mark(0), "??", "{out}");
    let c = g.comment(0);
    assert!(c.contains("blunder"), "{c}");
    assert!(c.contains("database win"), "{c}");
    // The better move is named, and it is a legal move of the position other than 22-18.
    let best = c
        .split("; ")
        .find_map(|p| p.strip_prefix("best "))
        .and_then(|p| p.split(' ').next())
        .unwrap_or_else(|| panic!("no best move in '{c}'"));
    assert_ne!(best, "22-18");
    let start = dama::fen::parse_fen::<English>("W:W22,K31:BK15").unwrap();
    assert!(dama::notation::parse_move(&start, best).is_ok(), "{best}");
    // The capture was the only move: it loses nothing and has no mark.
    assert_eq!(g.mark(1), "");
    assert!(g.tag("Annotator").unwrap().contains("depth 8"));
    assert!(g.preface.contains("White: average loss") && g.preface.contains("1 blunder"));
    // The summary goes to stderr too.
    assert!(
        err.contains("game 1 (line 1, w - b)") && err.contains("1 ??"),
        "{err}"
    );
    // And at the end each player's games together: w played 1 + 4 moves, b 1 + 4.
    let players = err.split("by player").nth(1).expect("the by-player table");
    assert!(players.contains("  w: 2 games, average loss"), "{players}");
    assert!(players.contains("  b: 2 games, average loss"), "{players}");
    assert_eq!(
        players.matches("over 5 moves; a game").count(),
        2,
        "{players}"
    );
}

#[test]
fn the_pdn_reads_back_with_the_same_moves_and_the_json_has_one_object_per_move() {
    let dir = temp("readback");
    let pdn = dir.join("in.pdn");
    let source = format!("{OPENING}{GIVEN_AWAY}");
    std::fs::write(&pdn, &source).unwrap();
    let (code, out, err) = annotate(&[pdn.to_str().unwrap(), "--depth", "6"]);
    assert_eq!(code, 0, "{err}");
    let written = parse_pdn(&out);
    let original = parse_pdn(&source);
    assert_eq!(written.len(), original.len());
    for (w, o) in written.iter().zip(&original) {
        assert_eq!(w.moves, o.moves);
        assert_eq!(w.result, o.result);
        assert_eq!(w.comments.len(), o.moves.len(), "a comment on every move");
    }
    // The board reads a game with dama's one reader.
    let first = out.split("\n\n[").next().unwrap();
    assert_eq!(read_pdn_game::<English>(first).unwrap().moves().len(), 8);

    let (code, json, err) = annotate(&[pdn.to_str().unwrap(), "--depth", "6", "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines.len(), 8 + 2, "one object per move");
    for (i, v) in lines.iter().enumerate() {
        let (game, ply) = if i < 8 { (1, i + 1) } else { (2, i - 7) };
        assert_eq!(v["game"], game);
        assert_eq!(v["ply"], ply);
        assert_eq!(v["scores_from"], "the side to move");
        assert_eq!(v["move"], original[game - 1].moves[ply - 1]);
        for k in [
            "fen",
            "score_before",
            "best",
            "best_score",
            "played_score",
            "loss",
            "depth",
        ] {
            assert!(!v[k].is_null(), "{k} in {v}");
        }
    }
    assert_eq!(lines[8]["label"], "blunder");
    assert_eq!(lines[8]["mark"], "??");
    assert_eq!(lines[0]["side"], "black", "black moves first in english");
}

#[test]
fn games_that_do_not_read_are_reported_and_skipped_and_the_rest_annotated() {
    let dir = temp("bad");
    let pdn = dir.join("in.pdn");
    let illegal = "[Event \"illegal\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 2. 15-18 19-16 *\n\n";
    let bad_fen =
        "[Event \"fen\"]\n[GameType \"21\"]\n[FEN \"W:W22,K31:BK15,K40\"]\n\n1. 22-18 *\n\n";
    let other = "[Event \"dameo\"]\n[Variant \"dameo\"]\n\n1. e2-e3 *\n\n";
    let truncated = "[Event \"cut\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-";
    std::fs::write(
        &pdn,
        format!("{OPENING}{illegal}{bad_fen}{other}{GIVEN_AWAY}{truncated}"),
    )
    .unwrap();
    let (code, out, err) = annotate(&[pdn.to_str().unwrap(), "--depth", "4"]);
    assert_eq!(code, 1, "some games were skipped: {err}");
    let games = parse_pdn(&out);
    let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(events, vec!["opening", "blunder"]);
    assert!(
        err.contains("game 2 (line 8): illegal move 19-16 at ply 4"),
        "{err}"
    );
    assert!(err.contains("game 3 (line 13): its FEN tag"), "{err}");
    assert!(
        err.contains("game 4 (line 19): it is dameo, not english"),
        "{err}"
    );
    assert!(
        err.contains("game 6 (line 32): illegal move 8- at ply 3"),
        "{err}"
    );
    // A file with no game, or one that does not exist, is refused.
    let empty = dir.join("empty.pdn");
    std::fs::write(&empty, "no games here\n").unwrap();
    let (code, _, err) = annotate(&[
        empty.to_str().unwrap(),
        "--variant",
        "english",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("game 1 (line 1): illegal move no"), "{err}");
    let (code, _, err) = annotate(&[dir.join("missing.pdn").to_str().unwrap(), "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.pdn"), "{err}");
}

/// Four games at depth 7, one thread: the file a run without interruption writes.
fn four_games(dir: &Path) -> PathBuf {
    let pdn = dir.join("in.pdn");
    std::fs::write(&pdn, format!("{OPENING}{GIVEN_AWAY}{OPENING}{GIVEN_AWAY}")).unwrap();
    pdn
}

#[test]
fn a_resumed_run_writes_the_file_of_a_run_without_interruption() {
    let dir = temp("resume");
    let pdn = four_games(&dir);
    for json in [false, true] {
        let whole = dir.join(format!("whole-{json}"));
        let cut = dir.join(format!("cut-{json}"));
        let mut args = vec![pdn.to_str().unwrap(), "--depth", "7", "--threads", "1"];
        if json {
            args.push("--json");
        }
        let with_out = |out: &Path, resume: bool| {
            let mut a = args.clone();
            a.extend(["--out", out.to_str().unwrap()]);
            if resume {
                a.push("--resume");
            }
            annotate(&a)
        };
        let (code, _, err) = with_out(&whole, false);
        assert_eq!(code, 0, "{err}");
        let full = std::fs::read(&whole).unwrap();
        // A write torn in the third game: the resumed run cuts it off and goes on.
        for keep in [full.len() * 2 / 3, full.len() - 3, 10] {
            std::fs::write(&cut, &full[..keep]).unwrap();
            let (code, _, err) = with_out(&cut, true);
            assert_eq!(code, 0, "{err}");
            assert_eq!(
                std::fs::read(&cut).unwrap(),
                full,
                "json {json}, kept {keep}: {err}"
            );
        }
        // Without --resume an existing file is refused, and left as it is.
        let (code, _, err) = with_out(&cut, false);
        assert_eq!(code, 2);
        assert!(err.contains("--resume"), "{err}");
        assert_eq!(std::fs::read(&cut).unwrap(), full);
        // Other settings are refused.
        let mut other = args.clone();
        other[2] = "5";
        other.extend(["--out", cut.to_str().unwrap(), "--resume"]);
        let (code, _, err) = annotate(&other);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("settings"), "{err}");
    }
}

#[test]
fn ctrl_c_keeps_the_games_written_whole_and_resume_goes_on() {
    let dir = temp("interrupt");
    // A short game first, so that the interrupt comes while the long ones are searched.
    let pdn = dir.join("in.pdn");
    std::fs::write(&pdn, format!("{GIVEN_AWAY}{OPENING}{OPENING}{OPENING}")).unwrap();
    let whole = dir.join("whole.pdn");
    let cut = dir.join("cut.pdn");
    let args = |out: &Path| {
        vec![
            pdn.to_str().unwrap().to_string(),
            "--depth".into(),
            "12".into(),
            "--threads".into(),
            "1".into(),
            "--out".into(),
            out.to_str().unwrap().to_string(),
        ]
    };
    let (code, _, err) = annotate(&args(&whole).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let full = std::fs::read_to_string(&whole).unwrap();
    // Interrupted once the first game is written.
    let child = command_without_databases()
        .arg("annotate")
        .args(args(&cut))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&cut).map_or(0, |t| parse_pdn(&t).len()) < 1
        && started.elapsed().as_secs() < 60
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().unwrap_or(-1);
    assert!(code == 130 || code == 0, "{code}: {err}");
    let part = std::fs::read_to_string(&cut).unwrap();
    assert!(full.starts_with(&part), "only whole games are written");
    if code == 130 {
        assert!(err.contains("--resume"), "{err}");
        assert!(part.len() < full.len());
    }
    let mut resume = args(&cut);
    resume.push("--resume".into());
    let (code, _, err) = annotate(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), full);
}
