//! Test openings: every shipped openings file (openings/<variant>.openings) is legal, its
//! lines reach distinct positions within its margin by a shallow search; damaged files and
//! files of another variant are refused by line; a match plays each line twice with the
//! colours swapped; `dama openings` writes, refuses and resumes files; the english ballots
//! file is the ACF list less its barred ballots; `--sift` and `--unstable` keep exactly the
//! lines they say.

mod common;

use common::bin::dama;
use dama::engine::time::Limits;
use dama::engine::Engine;
use dama::eval::Evaluation;
use dama::pdn::parse_pdn;
use dama::play::opening::{opening_game, read_openings};
use dama::play::selection::header_evaluation;
use dama::{with_variant, Rules, Variant};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn shipped(variant: Variant) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("openings")
        .join(format!("{variant}.openings"))
}

/// The margin of a file's first line (`margin=0.30..0.90`), in hundredths of a man.
fn margin_of(header: &str) -> (i32, i32) {
    let m = header
        .split_whitespace()
        .find_map(|w| w.strip_prefix("margin="))
        .expect("a margin in the first line");
    let (lo, hi) = m.split_once("..").unwrap();
    let men = |t: &str| (t.parse::<f64>().unwrap() * 100.0).round() as i32;
    (men(lo), men(hi))
}

fn check_shipped<R: Rules>() {
    let path = shipped(R::VARIANT);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with(&format!("# dama openings variant={} ", R::NAME)),
        "{header}"
    );
    let (lo, hi) = margin_of(header);
    // Legal, and reaching the FEN each line gives: read_openings checks both.
    let openings = read_openings::<R>(&text).unwrap();
    // 200 lines each, but boyer-parton's 85 and scandinavian's 382, sifted by games from
    // 285 and 600 (docs/results.md).
    assert!(
        openings.len() >= 80,
        "{}: {} lines",
        R::NAME,
        openings.len()
    );
    let mut seen = HashSet::new();
    let mut engine = Engine::<R>::new(16, 1);
    // The margin holds for the evaluation that rated the lines: the one the header names
    // (boyer-parton's file: classic, rated before it had a network), else the default.
    if let Some(e) = header_evaluation(header) {
        engine.set_evaluation(Evaluation::by_name::<R>(e).unwrap());
    }
    let slack = (hi - lo).max(20);
    for (n, o) in openings.iter().enumerate() {
        assert!(o.fen.is_none(), "line {}: from the start position", n + 1);
        let game = opening_game::<R>(o).unwrap();
        assert!(
            seen.insert(game.position().hash()),
            "{} line {}: a position reached before",
            R::NAME,
            n + 1
        );
        engine.new_game();
        engine.set_game(game);
        let limits = Limits {
            depth: Some(6),
            ..Default::default()
        };
        let score = engine.search(&limits, 1, &|_| {}).lines[0].score.abs();
        assert!(
            score + slack >= lo && score <= hi + slack,
            "{} line {}: the shallow search says {score}, the margin is {lo}..{hi}",
            R::NAME,
            n + 1
        );
    }
    // The recorded deep scores are inside the margin.
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let white: f64 = line
            .split("white ")
            .nth(1)
            .and_then(|s| s.split(',').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score in {line}"));
        let s = (white * 100.0).round().abs() as i32;
        assert!((lo..=hi).contains(&s), "{line}");
    }
}

#[test]
fn shipped_openings_are_legal_distinct_and_within_their_margin() {
    for v in Variant::ALL {
        with_variant!(v, R => check_shipped::<R>());
    }
}

/// The ACF numbers of the 18 barred ballots, left out of `openings/english-ballots.openings`.
const BARRED: [u32; 18] = [
    3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171,
];

#[test]
fn english_ballots_are_the_acf_list_less_the_barred() {
    use dama::rules::English;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/english-ballots.openings");
    let text = std::fs::read_to_string(&path).unwrap();
    // Legal, and reaching the FEN each line gives (made with pydraughts, checked by dama).
    let ballots = read_openings::<English>(&text).unwrap();
    assert_eq!(ballots.len(), 156);
    let numbers: Vec<u32> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let note = l.split("# ACF ").nth(1).unwrap_or_else(|| panic!("{l}"));
            note.split(',').next().unwrap().trim().parse().unwrap()
        })
        .collect();
    let want: Vec<u32> = (1..=174).filter(|n| !BARRED.contains(n)).collect();
    assert_eq!(numbers, want);
    let mut seen = HashSet::new();
    for (o, n) in ballots.iter().zip(&numbers) {
        assert_eq!(o.moves.len(), 3, "ACF {n}: three moves");
        let game = opening_game::<English>(o).unwrap();
        assert!(
            seen.insert(game.position().hash()),
            "ACF {n}: a position twice"
        );
    }
}

#[test]
fn damaged_and_foreign_files_are_refused_by_line() {
    use dama::rules::{English, Scandinavian};
    let text = std::fs::read_to_string(shipped(Variant::English)).unwrap();
    assert!(read_openings::<English>(&text).is_ok());
    // Another variant: the first line's first move is not legal there.
    let e = read_openings::<Scandinavian>(&text).unwrap_err();
    assert!(e.starts_with("openings line 2: move 1 "), "{e}");
    // A FEN that the moves do not reach.
    let lines: Vec<&str> = text.lines().collect();
    let (moves, fen) = lines[3].split_once(" ; ").unwrap();
    let other_fen = lines[4].split_once(" ; ").unwrap().1;
    let damaged = format!(
        "{}\n{}\n{}\n{moves} ; {other_fen}\n",
        lines[0], lines[1], lines[2]
    );
    let e = read_openings::<English>(&damaged).unwrap_err();
    assert!(
        e.starts_with("openings line 4: the moves reach ") && e.contains("not the FEN given"),
        "{e}"
    );
    assert!(!fen.is_empty());
    // A broken FEN, a broken move, an empty file.
    let e = read_openings::<English>(&format!("{moves} ; W:W99\n")).unwrap_err();
    assert!(e.starts_with("openings line 1: the FEN after ';': "), "{e}");
    let e = read_openings::<English>("11-15 23-19 8-12x\n").unwrap_err();
    assert!(e.starts_with("openings line 1: move 3 (8-12x)"), "{e}");
    assert_eq!(
        read_openings::<English>("# nothing\n").unwrap_err(),
        "the openings file has no opening"
    );
}

#[test]
fn a_match_plays_each_line_twice_with_colours_swapped() {
    let dir = std::env::temp_dir().join(format!("dama-openings-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(shipped(Variant::English)).unwrap();
    let three: Vec<&str> = text.lines().take(4).collect();
    let file = dir.join("three.openings");
    std::fs::write(&file, three.join("\n")).unwrap();
    let pdn = dir.join("games.pdn");
    let engine = format!("{} hub", common::bin::dama_path());
    let (code, _, err) = dama(&[
        "match",
        "--variant",
        "english",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--openings",
        file.to_str().unwrap(),
        "--games",
        "6",
        "--tc",
        "depth=2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap());
    assert_eq!(games.len(), 6);
    let mut by_opening: HashMap<String, Vec<String>> = HashMap::new();
    for g in &games {
        by_opening
            .entry(g.tag("Opening").unwrap().to_string())
            .or_default()
            .push(g.tag("White").unwrap().to_string());
    }
    assert_eq!(by_opening.len(), 3);
    for (opening, whites) in &by_opening {
        let moves = three[1..]
            .iter()
            .map(|l| l.split(" ; ").next().unwrap())
            .collect::<Vec<_>>();
        assert!(moves.contains(&opening.as_str()), "{opening}");
        assert_eq!(whites.len(), 2, "{opening}");
        assert_ne!(
            whites[0], whites[1],
            "{opening}: the same engine had White twice"
        );
    }
    // What the sifting reads of this PDN: one whole pair per line, decisive exactly when
    // the first engine's two games do not add up to one point.
    let openings = read_openings::<dama::rules::English>(&three.join("\n")).unwrap();
    let pdn_text = std::fs::read_to_string(&pdn).unwrap();
    let (outcomes, partial) =
        dama::play::line_outcome::line_outcomes::<dama::rules::English>(&openings, &[&pdn_text])
            .unwrap();
    assert_eq!(partial, 0);
    let first = games
        .iter()
        .find(|g| g.tag("Round") == Some("1"))
        .map(|g| g.tag("White").unwrap().to_string())
        .unwrap();
    for (line, o) in outcomes.iter().enumerate() {
        let moves = three[line + 1].split(" ; ").next().unwrap();
        let points: f64 = games
            .iter()
            .filter(|g| g.tag("Opening") == Some(moves))
            .map(|g| {
                let white = match g.tag("Result").unwrap() {
                    "1-0" => 1.0,
                    "0-1" => 0.0,
                    _ => 0.5,
                };
                if g.tag("White") == Some(first.as_str()) {
                    white
                } else {
                    1.0 - white
                }
            })
            .sum();
        assert_eq!(o.pairs, 1, "line {line}");
        assert_eq!(
            o.decisive,
            u32::from(points != 1.0),
            "line {line}: {points}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_openings_command_writes_refuses_and_resumes() {
    let dir = std::env::temp_dir().join(format!("dama-openings-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("e.openings");
    let out_s = out.to_str().unwrap();
    let args = |count: &'static str| {
        vec![
            "openings",
            "--variant",
            "english",
            "--count",
            count,
            "--depth",
            "6",
            "--threads",
            "2",
            "--out",
            out_s,
        ]
    };
    let (code, _, err) = dama(&args("4"));
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read_to_string(&out).unwrap();
    assert_eq!(first.lines().count(), 5, "{first}");
    assert!(first
        .starts_with("# dama openings variant=english plies=8 margin=0.30..0.90 depth=6 seed=1\n"));
    // An existing file is not overwritten.
    let (code, _, err) = dama(&args("6"));
    assert_eq!(code, 2);
    assert!(err.contains("exists: add --resume"), "{err}");
    // Resumed: the same lines, then new ones, all distinct.
    let mut resume = args("6");
    resume.push("--resume");
    let (code, _, err) = dama(&resume);
    assert_eq!(code, 0, "{err}");
    let second = std::fs::read_to_string(&out).unwrap();
    assert!(second.starts_with(&first));
    assert_eq!(second.lines().count(), 7);
    let openings = read_openings::<dama::rules::English>(&second).unwrap();
    let positions: HashSet<u64> = openings
        .iter()
        .map(|o| {
            opening_game::<dama::rules::English>(o)
                .unwrap()
                .position()
                .hash()
        })
        .collect();
    assert_eq!(positions.len(), 6);
    // Other settings: refused, naming both.
    let mut other = resume.clone();
    other.extend(["--seed", "2"]);
    let (code, _, err) = dama(&other);
    assert_eq!(code, 2);
    assert!(err.contains("was made with other settings"), "{err}");
    // Another evaluation is another setting: the header names it, and a file rated by
    // the default is not resumed with it.
    let mut classic = resume.clone();
    classic.extend(["--evaluation", "classic"]);
    let (code, _, err) = dama(&classic);
    assert_eq!(code, 2);
    assert!(
        err.contains("was made with other settings") && err.contains("evaluation=classic"),
        "{err}"
    );
    let rated = dir.join("c.openings");
    let mut by_classic = args("2");
    let last = by_classic.len() - 1;
    by_classic[last] = rated.to_str().unwrap();
    by_classic.extend(["--evaluation", "classic"]);
    let (code, _, err) = dama(&by_classic);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&rated).unwrap();
    assert!(text.starts_with(
        "# dama openings variant=english plies=8 margin=0.30..0.90 depth=6 seed=1 evaluation=classic\n"
    ));
    assert_eq!(
        header_evaluation(text.lines().next().unwrap()),
        Some("classic")
    );
    assert_eq!(header_evaluation(first.lines().next().unwrap()), None);
    let mut spaced = by_classic.clone();
    let n = spaced.len();
    spaced[n - 1] = "my model.nnue";
    let (code, _, err) = dama(&spaced);
    assert_eq!(code, 2);
    assert!(err.contains("must be one word"), "{err}");
    let mut missing = args("2");
    let last = missing.len() - 1;
    missing[last] = rated.to_str().unwrap();
    let _ = std::fs::remove_file(&rated);
    missing.extend(["--evaluation", "/nonexistent/dama.nnue"]);
    let (code, _, err) = dama(&missing);
    assert_eq!(code, 2);
    assert!(err.contains("nonexistent"), "{err}");
    // --unstable with a depth no deeper than its shallow search: refused at once.
    let mut shallow = args("2");
    let last = shallow.len() - 1;
    shallow[last] = rated.to_str().unwrap();
    shallow.push("--unstable");
    let (code, _, err) = dama(&shallow);
    assert_eq!(code, 2);
    assert!(err.contains("--depth must be above 6, not 6"), "{err}");
    // A margin that runs backwards.
    let (code, _, err) = dama(&[
        "openings",
        "--variant",
        "english",
        "--margin",
        "0.9..0.3",
        "--out",
        out_s,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("runs backwards"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_random_plies_start_every_game_from_the_start_position() {
    use dama::play::opening::random_openings;
    use dama::rules::BoyerParton;
    // boyer-parton's start is a forced win for White, so no search calls it even: with
    // no plies to draw, the start position is taken as it is, at once.
    let openings = random_openings::<BoyerParton>(5, 0, 1);
    assert_eq!(openings.len(), 5);
    assert!(openings
        .iter()
        .all(|o| o.fen.is_none() && o.moves.is_empty()));
    let dir = std::env::temp_dir().join(format!("dama-openings-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("games.pdn");
    let engine = format!("{} hub", common::bin::dama_path());
    let (code, _, err) = dama(&[
        "match",
        "--variant",
        "boyer-parton",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--random-openings",
        "0",
        "--games",
        "2",
        "--tc",
        "depth=2",
        "--adjudicate",
        "max-plies=40",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap());
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            g.tag("FEN").is_none(),
            "a game from the start has no FEN tag"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game of `dama match`'s PDN as the sifting reads it: its round, players, result and
/// opening (the moves need not be there).
fn match_game(round: usize, white: &str, black: &str, result: &str, opening: &str) -> String {
    format!(
        "[Event \"dama match (english)\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
         [Black \"{black}\"]\n[Result \"{result}\"]\n[Variant \"english\"]\n\
         [Opening \"{opening}\"]\n\n{result}\n\n"
    )
}

#[test]
fn sifting_keeps_the_lines_whose_pairs_were_decisive() {
    use dama::play::line_outcome::{line_outcomes, LineOutcome};
    use dama::rules::English;
    let text = std::fs::read_to_string(shipped(Variant::English)).unwrap();
    let header = text.lines().next().unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(7).collect();
    let moves = |i: usize| lines[i].split(" ; ").next().unwrap();
    // Pairs in the order a match plays them (openings cycled): engine A is White in the
    // odd rounds. Per pair: line, A's result as White, then as Black.
    let plan: [(usize, &str, &str); 8] = [
        (0, "1-0", "0-1"),         // A wins both: decisive
        (1, "1-0", "1-0"),         // White wins both: 1-1
        (2, "1/2-1/2", "1/2-1/2"), // two draws
        (3, "1/2-1/2", "0-1"),     // A 1.5: decisive
        (4, "0-1", "1/2-1/2"),     // A 0.5: decisive for B
        (5, "1-0", "*"),           // unfinished: left out
        (0, "1/2-1/2", "1/2-1/2"), // line 0 again: 1 of 2 decisive, kept
        (3, "1/2-1/2", "1/2-1/2"), // line 3 again: 1 of 2, kept
    ];
    let mut pdn = String::new();
    for (p, (line, as_white, as_black)) in plan.iter().enumerate() {
        pdn += &match_game(2 * p + 1, "A", "B", as_white, moves(*line));
        pdn += &match_game(2 * p + 2, "B", "A", as_black, moves(*line));
    }
    // Line 6 is never played. Pair 1 once more, cut short: its second game is missing.
    pdn += &match_game(17, "A", "B", "1-0", moves(1));
    let openings =
        read_openings::<English>(&text.lines().take(8).collect::<Vec<_>>().join("\n")).unwrap();
    let (outcomes, partial) = line_outcomes::<English>(&openings, &[&pdn]).unwrap();
    let o = |pairs, decisive| LineOutcome { pairs, decisive };
    assert_eq!(
        outcomes,
        vec![
            o(2, 1),
            o(1, 0),
            o(1, 0),
            o(2, 1),
            o(1, 1),
            o(0, 0),
            o(0, 0)
        ]
    );
    assert_eq!(partial, 2);

    // The command: the kept lines, verbatim, after the file's header and a line saying
    // what was sifted.
    let dir = std::env::temp_dir().join(format!("dama-openings-sift-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let from = dir.join("seven.openings");
    std::fs::write(&from, format!("{header}\n{}\n", lines.join("\n"))).unwrap();
    let games = dir.join("m.pdn");
    std::fs::write(&games, &pdn).unwrap();
    let out = dir.join("kept.openings");
    let sift = |pdn: &Path| {
        dama(&[
            "openings",
            "--variant",
            "english",
            "--from",
            from.to_str().unwrap(),
            "--sift",
            pdn.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (code, _, err) = sift(&games);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("3 of 7 lines kept"), "{err}");
    let kept = std::fs::read_to_string(&out).unwrap();
    let kept_lines: Vec<&str> = kept.lines().collect();
    assert_eq!(kept_lines[0], header);
    assert!(
        kept_lines[1].starts_with("# sifted (dama openings --sift): 3 of the 7 lines"),
        "{}",
        kept_lines[1]
    );
    assert_eq!(kept_lines[2..], [lines[0], lines[3], lines[4]]);
    // The file reads as openings of the variant, as the match needs.
    assert_eq!(read_openings::<English>(&kept).unwrap().len(), 3);
    // An existing file is not overwritten.
    let (code, _, err) = sift(&games);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");
    std::fs::remove_file(&out).unwrap();

    // Refused, naming the game: an opening not in the file, engines that do not swap
    // colours, another variant.
    let refused = |pdn_text: String, expect: &str| {
        let bad = dir.join("bad.pdn");
        std::fs::write(&bad, pdn_text).unwrap();
        let (code, _, err) = sift(&bad);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(expect), "{err}");
        assert!(!out.exists());
    };
    refused(
        match_game(1, "A", "B", "1-0", "9-13 22-18"),
        "PDN 1 game 1: its opening '9-13 22-18' is not a line of the openings file",
    );
    refused(
        match_game(1, "A", "B", "1-0", moves(0)) + &match_game(2, "A", "B", "1-0", moves(0)),
        "rounds 1 and 2 do not swap the engines' colours",
    );
    refused(
        match_game(1, "A", "B", "1-0", moves(0)).replace("\"english\"", "\"dameo\""),
        "PDN 1 game 1 is not a game of english",
    );
    refused(
        match_game(1, "A", "B", "1-0", moves(0)) + &match_game(2, "B", "A", "1-0", moves(1)),
        "round 2 opens with line 2 but the other game of its pair with line 1",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The best move of a fresh single-threaded search of `game` to `depth`.
fn best_at<R: Rules>(game: &dama::game::Game<R>, depth: u32) -> Option<dama::moves::Move> {
    let mut engine = Engine::<R>::try_new(16, 1).unwrap();
    engine.new_game();
    engine.set_game(game.clone());
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    engine.search(&limits, 1, &|_| {}).best
}

#[test]
fn unstable_lines_are_those_a_shallow_search_gets_wrong() {
    use dama::play::selection::{candidate, Selection, SHALLOW_DEPTH};
    type E = dama::rules::English;
    let mut sel = Selection::default_for(Variant::English);
    sel.depth = 8;
    sel.margin = (0, 300);
    let mut engine = Engine::<E>::try_new(16, 1).unwrap();
    let (mut unstable, mut stable) = (0, 0);
    for index in 0..400 {
        sel.unstable = false;
        let Some(plain) = candidate(&mut engine, &sel, index) else {
            continue;
        };
        let shallow = best_at(&plain.game, SHALLOW_DEPTH);
        let deep = best_at(&plain.game, 8);
        assert!(deep.is_some());
        sel.unstable = true;
        let kept = candidate(&mut engine, &sel, index);
        // The filter keeps a line exactly when the two searches' best moves differ, and
        // keeps it as it was.
        assert_eq!(kept.is_some(), shallow != deep, "candidate {index}");
        if let Some(k) = kept {
            assert_eq!(k.line(), plain.line());
            unstable += 1;
        } else {
            stable += 1;
        }
        if unstable >= 3 && stable >= 3 {
            break;
        }
    }
    assert!(
        unstable >= 3 && stable >= 3,
        "{unstable} unstable, {stable} stable"
    );
}
