//! `dama match`: a parallel match of `dama hub` against itself in every variant whose
//! PDN is read back and replayed through the rules, and misbehaving engines that lose
//! with the right reason while the match completes.

mod common;

use common::bin::dama_path;
use dama::game::Game;
use dama::pdn::parse_pdn;
use dama::{fen::parse_fen, notation::parse_move, with_variant, Position, Rules, Variant};

fn run_match(args: &[&str]) -> (i32, String, String) {
    common::bin::run(common::bin::command().arg("match").args(args))
}

/// Replays a PDN game through the rules and checks its result tag.
fn replay<R: Rules>(g: &dama::pdn::PdnGame) {
    let start = match g.tag("FEN") {
        Some(f) => parse_fen::<R>(f).unwrap(),
        None => Position::<R>::start(),
    };
    let mut game = Game::new(start);
    for m in &g.moves {
        let mv = parse_move(game.position(), m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert!(game.play(&mv));
    }
    let why = g.tag("Termination").unwrap();
    let result = g.tag("Result").unwrap();
    assert_eq!(result, g.result);
    if why.contains("(G8)") || why.contains("(G9)") || why.contains("(E7)") {
        let o = game
            .outcome()
            .unwrap_or_else(|| panic!("{why}: the game has not ended"));
        let expected = match o.winner() {
            Some(dama::Color::White) => "1-0",
            Some(dama::Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(result, expected, "{why}");
    } else {
        assert!(why.starts_with("adjudicated"), "{why}");
        assert_eq!(game.outcome(), None);
    }
}

#[test]
fn self_match_in_every_variant_replays_legally() {
    for v in Variant::ALL {
        let pdn =
            std::env::temp_dir().join(format!("dama-test-match-{v}-{}.pdn", std::process::id()));
        let engine = format!("{} hub", dama_path());
        let (code, out, err) = run_match(&[
            "--variant",
            v.name(),
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--option",
            "hash=4",
            "--games",
            "6",
            "--concurrency",
            "2",
            "--tc",
            "depth=2",
            "--adjudicate",
            "max-plies=150",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{v}: {err}");
        assert!(out.contains("6 games"), "{out}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        let _ = std::fs::remove_file(&pdn);
        let games = parse_pdn(&text);
        assert_eq!(games.len(), 6, "{v}");
        for g in &games {
            assert_eq!(g.tag("Variant"), Some(v.name()));
            assert_eq!(g.tag("GameType").is_some(), v == Variant::English);
            with_variant!(v, R => replay::<R>(g));
        }
    }
}

#[test]
fn an_engine_with_ponder_true_ponders_on_the_expected_reply() {
    // The second engine's input is logged on its way in: the runner must send it
    // `go ponder` after its moves, then `ponder-hit` when the expected reply was played
    // and `stop` when another was.
    let dir = std::env::temp_dir().join(format!("dama-test-ponder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("input.log");
    let pdn = dir.join("games.pdn");
    let engine = format!("{} hub", dama_path());
    let logged = format!(
        "bash -c \"tee -a '{}' | {} hub\"",
        log.display(),
        dama_path()
    );
    let (code, out, err) = run_match(&[
        "--variant",
        "english",
        "--engine",
        &engine,
        "--option",
        "hash=4",
        "--engine",
        &logged,
        "--option",
        "hash=4",
        "--option",
        "ponder=true",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--tc",
        "depth=4",
        "--adjudicate",
        "max-plies=120",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("4 games"), "{out}");
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap());
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(!g.tag("Termination").unwrap().contains("loses"), "{g:?}");
        replay::<dama::rules::English>(g);
    }
    let input = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let count = |what: &str| input.lines().filter(|l| *l == what).count();
    let (ponders, hits, stops) = (count("go ponder"), count("ponder-hit"), count("stop"));
    assert!(ponders > 20, "{ponders} ponders");
    assert!(hits > 0 && stops > 0, "{hits} hits, {stops} stops");
    // Every pondering search ends in exactly one of the two.
    assert_eq!(ponders, hits + stops);
    // A hit is answered by the pondering search, never by a new `go think` for the
    // same move: each `ponder-hit` is followed by the next `pos` line, not `go think`.
    let lines: Vec<&str> = input.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if *l == "ponder-hit" {
            assert_ne!(lines.get(i + 1).copied(), Some("go think"));
        }
    }
}

fn misbehaving(mode: &str, tc: &str, reason: &str) {
    let fake = format!(
        "bash {}/tests/fixtures/fake_engine.sh {mode}",
        env!("CARGO_MANIFEST_DIR")
    );
    let engine = format!("{} hub", dama_path());
    let pdn =
        std::env::temp_dir().join(format!("dama-test-fake-{mode}-{}.pdn", std::process::id()));
    let (code, out, err) = run_match(&[
        "--variant",
        "english",
        "--engine",
        &engine,
        "--engine",
        &fake,
        "--games",
        "4",
        "--tc",
        tc,
        "--timeout",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{mode}: {err}");
    assert!(out.contains("wins 4 draws 0 losses 0"), "{mode}: {out}");
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap());
    let _ = std::fs::remove_file(&pdn);
    assert_eq!(games.len(), 4);
    for g in &games {
        let why = g.tag("Termination").unwrap();
        assert!(
            why.contains("fake_engine.sh") && why.contains(reason),
            "{mode}: {why}"
        );
        let fake_is_white = g.tag("White").unwrap().contains("fake");
        assert_eq!(g.result, if fake_is_white { "0-1" } else { "1-0" });
        replay_partial(g);
    }
}

/// The moves before the failure are legal.
fn replay_partial(g: &dama::pdn::PdnGame) {
    let mut game = Game::new(Position::<dama::rules::English>::start());
    for m in &g.moves {
        let mv = parse_move(game.position(), m).unwrap();
        assert!(game.play(&mv));
    }
}

#[test]
fn a_crashing_engine_loses() {
    misbehaving("crash", "depth=2", "loses: crashed");
}

#[test]
fn a_hanging_engine_loses() {
    misbehaving("hang", "movetime=50", "did not answer in time");
}

#[test]
fn an_engine_playing_an_illegal_move_loses() {
    misbehaving("illegal", "depth=2", "loses: illegal move 1-2");
}

#[test]
fn clock_and_bad_arguments() {
    let engine = format!("{} hub", dama_path());
    let (code, out, err) = run_match(&[
        "--variant",
        "scandinavian",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "2",
        "--tc",
        "0.5+0.02",
        // A loaded machine (tests run in parallel) can delay a reply by tens of
        // milliseconds; a generous margin keeps this a test of the clocks, not of load.
        "--margin",
        "1000",
        "--adjudicate",
        "no-progress=60",
        "--sprt",
        "elo0=0,elo1=10",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sprt llr"), "{out}");
    assert!(!out.contains("loses on time"), "{out}");
    // Per-engine time control: the second engine searches to depth 1 only.
    let (code, out, err) = run_match(&[
        "--variant",
        "english",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--option",
        "tc=depth=1",
        "--games",
        "2",
        "--tc",
        "depth=3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("tc=Depth(1)"), "{out}");
    for bad in [
        vec![
            "--variant",
            "english",
            "--engine",
            "a",
            "--engine",
            "b",
            "--option",
            "tc=soon",
        ],
        vec!["--variant", "english", "--engine", "x"],
        vec![
            "--variant",
            "english",
            "--engine",
            "a",
            "--engine",
            "b",
            "--tc",
            "fast",
        ],
        vec![
            "--variant",
            "english",
            "--engine",
            "a",
            "--engine",
            "b",
            "--sprt",
            "elo1=1",
        ],
        vec![
            "--variant",
            "english",
            "--engine",
            "a",
            "--engine",
            "b",
            "--adjudicate",
            "win=5",
        ],
    ] {
        let (code, _, err) = run_match(&bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.contains("error"), "{err}");
    }
}

/// An SPRT that decides early stops the match, unless --play-all is given: then every
/// game is played and the decision is still reported.
#[test]
fn sprt_stops_early_unless_play_all() {
    let engine = format!("{} hub", dama_path());
    let args = |play_all: bool| {
        let mut a = vec![
            "--variant".to_string(),
            "english".into(),
            "--engine".into(),
            engine.clone(),
            "--option".into(),
            "tc=depth=1".into(),
            "--engine".into(),
            engine.clone(),
            "--games".into(),
            "24".into(),
            "--tc".into(),
            "depth=5".into(),
            // Depth 1 against depth 5: "better" is rejected after a few pairs.
            "--sprt".into(),
            "elo0=0,elo1=10".into(),
        ];
        if play_all {
            a.push("--play-all".into());
        }
        a
    };
    let games = |out: &str| -> usize {
        let line = out.lines().next().unwrap_or("");
        let n = line.rsplit(", ").next().unwrap_or("");
        n.trim_end_matches(" games)").parse().unwrap_or(0)
    };
    let a = args(false);
    let (code, out, err) = run_match(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("H0 accepted"), "{out}");
    assert!(games(&out) < 24, "{out}");
    let a = args(true);
    let (code, out, err) = run_match(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("H0 accepted"), "{out}");
    assert_eq!(games(&out), 24, "{out}");
}
