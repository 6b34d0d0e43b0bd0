//! The learned evaluation: incremental first layer against recomputation, colour
//! symmetry, the model file (round trip, corrupt and truncated files), the data file
//! (resume after a cut), and training (loss goes down, bit-for-bit reproducible).

mod common;

use common::bin::dama;
use dama::engine::time::Limits;
use dama::engine::Engine;
use dama::eval::model::Model;
use dama::eval::network::{Network, WIDTHS};
use dama::eval::Evaluation;
use dama::game::Game;
use dama::learn::data::{self, Record, Writer};
use dama::learn::gen::{play_game, GenConfig};
use dama::learn::train::{
    fit_scale_of_records, rescale_each, thin_endgames, train, FloatNet, TrainConfig,
};
use dama::play::opening::{for_game_from, opening_game, read_openings, EVEN};
use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::{movegen, Bitboard, Color, Position, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// A network with random weights (the shipped ones may not exist for every variant),
/// with three heads chosen by the piece count of `R`'s game, so that the checks below
/// cross from one head to another as pieces are taken.
fn random_net<R: Rules>(seed: u64) -> Network {
    random_wide::<R>(seed, dama::eval::network::L1)
}

/// [`random_net`] with a first layer of `width`.
fn random_wide<R: Rules>(seed: u64, width: usize) -> Network {
    let start = (R::START_WHITE | R::START_BLACK).count();
    FloatNet::random_wide(seed, width, 3, start)
        .expect("a width the build runs")
        .quantize(100.0)
}

/// Random playouts; after every move the incremental sums equal a recomputation, for
/// a network of every first-layer width. Returns (moves, multi-captures, crownings) seen.
fn incremental<R: Rules>(seed: u64) -> (usize, usize, usize) {
    let mut total = (0, 0, 0);
    for width in WIDTHS {
        let (m, x, c) = incremental_wide::<R>(seed, width);
        total = (total.0 + m, total.1 + x, total.2 + c);
    }
    total
}

fn incremental_wide<R: Rules>(seed: u64, width: usize) -> (usize, usize, usize) {
    let net = random_wide::<R>(seed, width);
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut moves, mut multi, mut crowned) = (0, 0, 0);
    for _ in 0..15 {
        let mut pos = Position::<R>::start();
        let mut acc = net.refresh(&pos);
        for _ in 0..200 {
            let list = movegen::legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.gen_range(0..list.len())];
            let child = pos.play(&mv);
            acc = net.update(&acc, &pos, &child);
            assert_eq!(
                acc,
                net.refresh(&child),
                "{} width {width}: after {:?}",
                R::NAME,
                mv
            );
            assert_eq!(
                net.evaluate(&acc, child.side(), child.occupied().count()),
                net.evaluate_position(&child)
            );
            moves += 1;
            multi += (mv.captured.count() >= 2) as usize;
            crowned += (child.all_kings().count() > pos.all_kings().count()) as usize;
            pos = child;
        }
    }
    (moves, multi, crowned)
}

#[test]
fn incremental_first_layer_equals_recomputation() {
    for (name, (moves, multi, crowned)) in [
        ("dameo", incremental::<Dameo>(1)),
        ("croda", incremental::<Croda>(2)),
        ("scandinavian", incremental::<Scandinavian>(3)),
        ("boyer-parton", incremental::<BoyerParton>(4)),
        ("english", incremental::<English>(5)),
    ] {
        // The playouts must have exercised what the update has to get right.
        assert!(moves > 1000, "{name}: {moves} moves");
        assert!(multi > 0, "{name}: no multi-capture in the playouts");
        assert!(crowned > 0, "{name}: no crowning in the playouts");
    }
}

fn symmetric<R: Rules>(seed: u64) {
    let mut evals: Vec<Evaluation> = WIDTHS
        .iter()
        .map(|&w| Evaluation::Net(Arc::new(random_wide::<R>(seed, w))))
        .collect();
    evals.push(Evaluation::classic::<R>());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = Position::<R>::start();
        for _ in 0..rng.gen_range(0..120) {
            let list = movegen::legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            pos = pos.play(&list[rng.gen_range(0..list.len())]);
        }
        let m = pos.turned();
        assert_eq!(dama::fen::to_fen(&m.turned()), dama::fen::to_fen(&pos));
        for e in &evals {
            assert_eq!(
                e.evaluate(&pos),
                e.evaluate(&m),
                "{} {}: {pos:?} against its mirror {m:?}",
                R::NAME,
                e.kind()
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 40);
}

#[test]
fn colour_symmetry() {
    symmetric::<Dameo>(11);
    symmetric::<Croda>(12);
    symmetric::<Scandinavian>(13);
    symmetric::<BoyerParton>(14);
    symmetric::<English>(15);
}

#[test]
fn model_file_round_trip_and_damage() {
    let net = random_net::<Croda>(7);
    let model = Model::new("croda", net.clone(), vec![("data".into(), "test".into())]);
    let bytes = model.to_bytes();
    let back = Model::from_bytes(&bytes, "croda").expect("reads back");
    assert_eq!(back, model);
    assert_eq!(back.get("data"), Some("test"));
    assert_eq!(back.get("start-pieces"), Some("48"));
    assert_eq!(back.net.heads.len(), 3);
    // A one-head network keeps the plain architecture string and no start-pieces.
    let single = Model::new("croda", FloatNet::random(7).quantize(100.0), vec![]);
    let back1 = Model::from_bytes(&single.to_bytes(), "croda").expect("reads back");
    assert_eq!(back1, single);
    assert_eq!(
        back1.get("architecture"),
        Some(dama::eval::model::ARCHITECTURE)
    );
    assert!(back1.get("start-pieces").is_none());
    // The header names the head count.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert!(text.contains("3 heads by piece count"));
    // Every width round-trips, and its header names it.
    for width in WIDTHS {
        let wide = Model::new("croda", random_wide::<Croda>(8, width), vec![]);
        let back = Model::from_bytes(&wide.to_bytes(), "croda").expect("reads back");
        assert_eq!(back, wide);
        assert_eq!(back.net.width, width);
        let arch = back.get("architecture").unwrap();
        assert!(arch.contains(&format!("-> 2x{width} crelu")), "{arch}");
    }
    // A width this build does not run is refused by name.
    let mut odd = bytes.clone();
    let at = odd.windows(5).position(|w| w == b"2x128").unwrap();
    odd[at..at + 5].copy_from_slice(b"2x100");
    let err = Model::from_bytes(&odd, "croda").unwrap_err();
    assert!(
        err.contains("2x100") && err.contains("not one this build runs"),
        "{err}"
    );

    let err = |b: &[u8], variant: &str| Model::from_bytes(b, variant).unwrap_err();
    assert!(err(&bytes, "dameo").contains("for croda, not dameo"));
    assert!(err(&bytes[..bytes.len() - 1], "croda").contains("truncated"));
    assert!(err(&bytes[..10], "croda").contains("bad magic"));
    assert!(err(b"hello world, not a model", "croda").contains("bad magic"));
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(err(&flipped, "croda").contains("checksum"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(err(&version, "croda").contains("version 9"));

    let dir = std::env::temp_dir().join(format!("dama-nn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.nnue");
    model.write(&path).unwrap();
    assert_eq!(Model::read(&path, "croda").unwrap(), model);
    std::fs::write(&path, &bytes[..bytes.len() / 3]).unwrap();
    let e = Model::read(&path, "croda").unwrap_err();
    assert!(e.contains("m.nnue") && e.contains("truncated"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shipped_models_read() {
    assert_eq!(dama::eval::check_shipped::<Dameo>(), Ok(true));
    assert_eq!(dama::eval::check_shipped::<Croda>(), Ok(true));
    assert_eq!(dama::eval::check_shipped::<Scandinavian>(), Ok(true));
    assert_eq!(dama::eval::check_shipped::<BoyerParton>(), Ok(true));
    assert_eq!(dama::eval::check_shipped::<English>(), Ok(true));
    assert_eq!(Evaluation::default_for::<English>().kind(), "nn");
}

/// A few games of quick self-play.
fn tiny_data<R: Rules>(games: u32) -> Vec<Record> {
    let cfg = GenConfig {
        games,
        limits: Limits {
            nodes: Some(300),
            ..Default::default()
        },
        opening_plies: 6,
        max_plies: 200,
        seed: 3,
        evaluation: Evaluation::classic::<R>(),
        openings: Vec::new(),
    };
    let mut engine = Engine::<R>::new(1, 1);
    (0..games)
        .flat_map(|g| play_game(&mut engine, &cfg, g))
        .collect()
}

#[test]
fn generated_games_are_reproducible_and_quiet() {
    let a = tiny_data::<English>(3);
    let b = tiny_data::<English>(3);
    assert_eq!(a, b);
    assert!(a.len() > 30);
    for r in &a {
        let p = r.position::<English>().expect("a valid position");
        assert!(!movegen::has_capture(&p), "a record with a capture pending");
        assert!(r.result <= 2);
    }
}

/// `dama train --thin-endgames N:K`: every position with more than N pieces is kept, in
/// order; of those with N or fewer about one in K is kept, the same ones every time.
#[test]
fn thinning_keeps_the_middlegame_and_one_ending_in_k() {
    let records = tiny_data::<Scandinavian>(8);
    let pieces = |r: &Record| (r.white | r.black).count_ones();
    let few = |r: &Record| pieces(r) <= 12;
    let endings = records.iter().filter(|r| few(r)).count();
    assert!(endings > 200, "{endings} endings: too few to test");
    let mut thinned = records.clone();
    let dropped = thin_endgames(&mut thinned, 12, 4);
    assert_eq!(thinned.len() + dropped, records.len());
    // The rest unchanged and in order.
    let rest = |v: &[Record]| v.iter().filter(|r| !few(r)).copied().collect::<Vec<_>>();
    assert_eq!(rest(&thinned), rest(&records));
    // About one ending in four kept (a hash, so not exactly), each one from the data.
    let kept = thinned.iter().filter(|r| few(r)).count();
    assert_eq!(kept, endings - dropped);
    assert!(
        kept * 8 > endings && kept * 8 < endings * 3,
        "{kept} of {endings}"
    );
    assert!(thinned.iter().all(|r| records.contains(r)));
    // The same records every time; K = 1 keeps all.
    let mut again = records.clone();
    thin_endgames(&mut again, 12, 4);
    assert_eq!(again, thinned);
    let mut all = records.clone();
    assert_eq!(thin_endgames(&mut all, 12, 1), 0);
    assert_eq!(all, records);
    // A bad N:K is refused with the form it wants.
    for bad in ["5", "5:0", "0:8", "x:8", "65:2"] {
        let (code, _, err) = dama(&[
            "train",
            "-v",
            "english",
            "--data",
            "none.bin",
            "--out",
            "none.nnue",
            "--thin-endgames",
            bad,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("is not N:K"), "{bad}: {err}");
    }
}

#[test]
fn data_file_resume_drops_the_cut_game() {
    let records = tiny_data::<Scandinavian>(3);
    let dir = std::env::temp_dir().join(format!("dama-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.bin");
    let info = data::RunInfo {
        seed: 3,
        nodes: 300,
        ..Default::default()
    };
    let mut w = Writer::create(&path, "scandinavian", &info).unwrap();
    for g in 0..3 {
        let game: Vec<Record> = records.iter().filter(|r| r.game == g).copied().collect();
        w.write_game(&game).unwrap();
    }
    drop(w);
    assert_eq!(data::read(&path, "scandinavian").unwrap(), records);
    assert!(data::read(&path, "english")
        .unwrap_err()
        .contains("for scandinavian, not english"));
    // Cut the file in the middle of the last game's records.
    let len = std::fs::metadata(&path).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(len - 40).unwrap();
    drop(f);
    let other = data::RunInfo { seed: 4, ..info };
    let e = Writer::resume(&path, "scandinavian", &other).err().unwrap();
    assert!(e.contains("seed 3, this run has 4"), "{e}");
    let (_, done) = Writer::resume(&path, "scandinavian", &info).unwrap();
    assert_eq!(done, vec![0, 1]);
    let kept = data::read(&path, "scandinavian").unwrap();
    assert!(kept.iter().all(|r| r.game < 2));
    assert_eq!(kept.len(), records.iter().filter(|r| r.game < 2).count());
    std::fs::write(&path, b"DAMADATA junk").unwrap();
    assert!(data::read(&path, "scandinavian").is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// `rescale_each` puts data sets whose scores are in different units into one: a set
/// whose scores are twice another's (the same positions and results) comes out with the
/// same scores, a single set in its own unit is left as it was, and a set put in a
/// given unit fits that unit afterwards.
#[test]
fn rescale_each_puts_every_file_in_one_unit() {
    let a: Vec<Record> = tiny_data::<English>(16)
        .into_iter()
        .filter(|r| r.score.abs() < 10_000)
        .collect();
    assert!(a.len() > 200 && a.iter().any(|r| r.score != 0));
    let doubled: Vec<Record> = a
        .iter()
        .map(|r| Record {
            score: r.score * 2,
            ..*r
        })
        .collect();
    let sa = fit_scale_of_records(&a, 4);
    let sb = fit_scale_of_records(&doubled, 4);
    assert!((sb / sa - 2.0).abs() < 1e-3, "{sa} {sb}");

    let mut sets = vec![a.clone(), doubled];
    let (scales, unit) = rescale_each(&mut sets, 4, None);
    assert_eq!(scales, vec![sa, sb]);
    assert!(unit > sa && unit < sb, "{sa} {unit} {sb}");
    for (x, y) in sets[0].iter().zip(&sets[1]) {
        assert!((x.score as i32 - y.score as i32).abs() <= 1, "{x:?} {y:?}");
        assert_eq!(
            (x.white, x.black, x.kings, x.result),
            (y.white, y.black, y.kings, y.result)
        );
    }

    let mut alone = vec![a.clone()];
    let (_, unit) = rescale_each(&mut alone, 4, None);
    assert_eq!(unit, sa);
    assert_eq!(alone[0], a);

    let mut given = vec![a.clone()];
    let (_, unit) = rescale_each(&mut given, 4, Some(3.0 * sa));
    assert_eq!(unit, 3.0 * sa);
    let refit = fit_scale_of_records(&given[0], 4);
    assert!((refit / unit - 1.0).abs() < 0.01, "{refit} {unit}");
}

#[test]
fn training_lowers_the_loss_and_is_reproducible() {
    let records = tiny_data::<English>(24);
    let cfg = TrainConfig {
        epochs: 6,
        batch: 256,
        lr: 0.003,
        validation_every: 4,
        seed: 5,
        ..TrainConfig::default()
    };
    let run = || train(&records, &cfg, &mut |_| {});
    let a = run();
    let b = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(run);
    assert_eq!(
        a.float, b.float,
        "same seed, other thread count, other weights"
    );
    assert_eq!(a.float.quantize(a.scale).clone(), b.float.quantize(b.scale),);
    // The loss over the training positions, before and after.
    let last = a.epochs.last().unwrap();
    let after =
        dama::learn::train::mean_loss(&a.float, &dama::learn::train::prepare(&records, &cfg).0);
    assert!(
        after < 0.7 * a.initial_train_loss,
        "training loss {} -> {after}",
        a.initial_train_loss
    );
    assert!(last.train_loss.is_finite() && last.validation_loss.is_finite());
    let c = train(
        &records,
        &TrainConfig {
            seed: 6,
            ..cfg.clone()
        },
        &mut |_| {},
    );
    assert_ne!(a.float, c.float, "another seed gives another network");
    // With heads chosen by the piece count: reproducible, and the loss goes down too.
    let heads = TrainConfig {
        heads: 3,
        start_pieces: 24,
        ..cfg.clone()
    };
    let d = train(&records, &heads, &mut |_| {});
    let e = train(&records, &heads, &mut |_| {});
    assert_eq!(d.float, e.float);
    assert_ne!(d.float, a.float);
    let after =
        dama::learn::train::mean_loss(&d.float, &dama::learn::train::prepare(&records, &heads).0);
    assert!(after < 0.7 * d.initial_train_loss);
    assert_eq!(d.float.quantize(d.scale).heads.len(), 3);
    // A wider first layer: reproducible on one thread, the loss goes down, and the
    // integer network keeps the width.
    let wide = TrainConfig {
        width: 256,
        ..cfg.clone()
    };
    let f = train(&records, &wide, &mut |_| {});
    let g = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| train(&records, &wide, &mut |_| {}));
    assert_eq!(f.float, g.float);
    assert_eq!(f.float.width(), 256);
    let after =
        dama::learn::train::mean_loss(&f.float, &dama::learn::train::prepare(&records, &wide).0);
    assert!(after < 0.7 * f.initial_train_loss);
    assert_eq!(f.float.quantize(f.scale).width, 256);
}

/// `dama gen` then `dama train` from the command line: a run is continued with
/// --resume (a killed run's cut game is played again), an existing file is never
/// overwritten, and the trained model loads as an evaluation.
#[test]
fn gen_resume_and_train_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("dama-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.bin");
    let d = data.to_str().unwrap();
    let gen = |games: &str, extra: &[&str]| {
        let mut a = vec![
            "gen", "-v", "english", "--games", games, "--nodes", "200", "--out", d, "-t", "2",
        ];
        a.extend_from_slice(extra);
        dama(&a)
    };
    let (code, out, err) = gen("4", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("gen: 4 games"), "{out}");
    let (code, _, err) = gen("4", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("exists: give --resume"), "{err}");
    // Cut the last record short, as a killed run would leave it, and continue to 6.
    let len = std::fs::metadata(&data).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&data).unwrap();
    f.set_len(len - 7).unwrap();
    drop(f);
    let (code, out, err) = gen("6", &["--resume"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("already in"), "{err}");
    assert!(out.contains("gen: 3 games"), "{out}{err}");
    let resumed = data::read(&data, "english").unwrap();
    let mut games: Vec<u32> = resumed.iter().map(|r| r.game).collect();
    games.dedup();
    games.sort_unstable();
    games.dedup();
    assert_eq!(games, vec![0, 1, 2, 3, 4, 5]);
    // The same games as one uninterrupted run.
    let fresh = dir.join("e.bin");
    let (code, _, err) = dama(&[
        "gen",
        "-v",
        "english",
        "--games",
        "6",
        "--nodes",
        "200",
        "--out",
        fresh.to_str().unwrap(),
        "-t",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    // Games are written in order of their numbers whatever the threads' timing, so the
    // run on two threads, cut and resumed, is byte for byte the run on one.
    assert_eq!(resumed, data::read(&fresh, "english").unwrap());
    assert_eq!(
        std::fs::read(&data).unwrap(),
        std::fs::read(&fresh).unwrap()
    );
    // Other settings are refused.
    let (code, _, err) = gen("6", &["--resume", "--seed", "9"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot resume: the file was made with seed 1"),
        "{err}"
    );
    // A foreign file is refused.
    let (code, _, err) = dama(&[
        "gen", "-v", "dameo", "--games", "6", "--nodes", "200", "--out", d, "--resume",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("for english, not dameo"), "{err}");

    let model = dir.join("m.nnue");
    let (code, out, err) = dama(&[
        "train",
        "-v",
        "english",
        "--data",
        d,
        "--epochs",
        "2",
        "--batch",
        "64",
        "--out",
        model.to_str().unwrap(),
        "--validation-every",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("epoch   2") && out.contains("validation loss"),
        "{out}"
    );
    // --model-scale writes the same weights with another scale: the same logits in
    // other units. An out-of-range one is refused.
    let rescaled = dir.join("m123.nnue");
    let train_to = |out: &std::path::Path, scale: &str| {
        dama(&[
            "train",
            "-v",
            "english",
            "--data",
            d,
            "--epochs",
            "2",
            "--batch",
            "64",
            "--out",
            out.to_str().unwrap(),
            "--validation-every",
            "3",
            "--model-scale",
            scale,
        ])
    };
    let (code, out, err) = train_to(&rescaled, "123");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("model scale 123.0"), "{out}");
    let a = Model::read(&model, "english").unwrap();
    let b = Model::read(&rescaled, "english").unwrap();
    assert_eq!(b.net.scale, 123);
    assert_ne!(a.net.scale, 123);
    assert_eq!(a.net.w1, b.net.w1);
    // --scale-each-file fits each file's scale; the same file twice keeps its scores.
    let (code, _, err) = dama(&[
        "train",
        "-v",
        "english",
        "--data",
        d,
        d,
        "--epochs",
        "1",
        "--batch",
        "64",
        "--scale-each-file",
        "--out",
        dir.join("each.nnue").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("its scores multiplied by 1.000").count(),
        2,
        "{err}"
    );
    let (code, _, err) = train_to(&dir.join("bad.nnue"), "0");
    assert_eq!(code, 2);
    assert!(
        err.contains("--model-scale 0 is not in [1, 100000]"),
        "{err}"
    );
    let (code, out, err) = dama(&[
        "analyze",
        "-v",
        "english",
        "--depth",
        "4",
        "--evaluation",
        model.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bestmove"), "{out}");
    let (code, _, err) = dama(&[
        "analyze",
        "-v",
        "dameo",
        "--depth",
        "4",
        "--evaluation",
        model.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("for english, not dameo"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Ctrl-C (SIGINT) during `dama gen`: the games in progress are finished and written,
/// the exit code is 130, and --resume completes the run.
#[test]
fn gen_interrupted_by_sigint_resumes() {
    let dir = std::env::temp_dir().join(format!("dama-gen-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.bin");
    let d = data.to_str().unwrap().to_string();
    // One run's arguments, written to `out`.
    let args = |out: &str| {
        [
            "gen", "-v", "english", "--games", "120", "--nodes", "300", "-t", "2", "--out",
        ]
        .map(String::from)
        .into_iter()
        .chain([out.to_string()])
        .collect::<Vec<String>>()
    };
    let child = common::bin::command()
        .args(args(&d))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start dama gen");
    // Wait for some whole games on disk, then interrupt.
    let t = std::time::Instant::now();
    while std::fs::metadata(&data).map(|m| m.len()).unwrap_or(0) < 64 + 32 * 100 {
        assert!(t.elapsed().as_secs() < 60, "no data written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let len = std::fs::metadata(&data).unwrap().len();
    assert_eq!((len - 64) % 32, 0, "only whole records");
    let before = data::read(&data, "english").unwrap();
    let mut resume = args(&d);
    resume.push("--resume".into());
    let (code, _, err) = dama(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let after = data::read(&data, "english").unwrap();
    assert!(after.len() > before.len());
    let mut games: Vec<u32> = after.iter().map(|r| r.game).collect();
    assert!(games.is_sorted(), "games written out of order");
    games.dedup();
    assert_eq!(games, (0..120).collect::<Vec<u32>>());
    // Interrupted and resumed, the file is byte for byte one uninterrupted run.
    let fresh = dir.join("e.bin");
    let fresh_args = args(fresh.to_str().unwrap());
    let (code, _, err) = dama(&fresh_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&data).unwrap(),
        std::fs::read(&fresh).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `dama gen --egdb-pieces N`: no position the databases hold is written (each game ends
/// there, with their value as its result), while the same run without them writes such
/// positions; a file is resumed only with the same databases, and databases that are
/// not complete to N pieces are refused.
#[test]
fn gen_ends_games_in_the_endgame_databases() {
    let dir = std::env::temp_dir().join(format!("dama-gen-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("egdb");
    let db = db.to_str().unwrap();
    let (code, _, err) = dama(&["egdb", "build", "-v", "english", "-p", "4", "--dir", db]);
    assert_eq!(code, 0, "{err}");
    let gen = |out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let mut a = vec![
            "gen",
            "-v",
            "english",
            "--games",
            "12",
            "--nodes",
            "300",
            "-t",
            "2",
            "--out",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        let (code, _, err) = dama(&a);
        (code, err, out)
    };
    let pieces = |r: &Record| (r.white | r.black).count_ones();
    let (code, err, plain) = gen("plain.bin", &[]);
    assert_eq!(code, 0, "{err}");
    let plain = data::read(&plain, "english").unwrap();
    assert!(
        plain.iter().any(|r| pieces(r) <= 4),
        "no ending of 4 pieces"
    );
    let (code, err, ended) = gen("egdb.bin", &["--egdb-pieces", "4", "--egdb-dir", db]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("egdb"), "{err}");
    let ended_records = data::read(&ended, "english").unwrap();
    assert!(ended_records.iter().all(|r| pieces(r) > 4));
    assert!(ended_records.len() < plain.len());
    let mut games: Vec<u32> = ended_records.iter().map(|r| r.game).collect();
    games.dedup();
    assert_eq!(games, (0..12).collect::<Vec<u32>>());
    // Resumed without the databases (or with others) it is refused.
    for extra in [
        &["--resume"][..],
        &["--resume", "--egdb-pieces", "3", "--egdb-dir", db],
    ] {
        let (code, err, _) = gen("egdb.bin", extra);
        assert_eq!(code, 2, "{extra:?}");
        assert!(err.contains("other endgame databases"), "{err}");
    }
    let (code, err, _) = gen("more.bin", &["--egdb-pieces", "5", "--egdb-dir", db]);
    assert_eq!(code, 2);
    assert!(err.contains("complete to 4 pieces only"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The left-right mirror (files a <-> h) of a position, same colours and side to move.
fn left_right<R: Rules>(p: &Position<R>) -> Position<R> {
    let m = |b: Bitboard| Bitboard(dama::learn::train::mirror(b.0));
    Position::new(
        [m(p.pieces(Color::White)), m(p.pieces(Color::Black))],
        m(p.all_kings()),
        p.side(),
    )
    .expect("the mirror of a 64-square position is a position")
}

/// The successors of a position as (white, black, kings) sets.
fn successors<R: Rules>(p: &Position<R>) -> std::collections::BTreeSet<(u64, u64, u64)> {
    movegen::legal_moves(p)
        .iter()
        .map(|mv| {
            let c = p.play(mv);
            (
                c.pieces(Color::White).0,
                c.pieces(Color::Black).0,
                c.all_kings().0,
            )
        })
        .collect()
}

/// The trainer's mirror augmentation is only right if the rules are mirror-symmetric:
/// in random playouts, the successors of the mirrored position are the mirrored
/// successors (captures, majority rule and crowning included).
fn mirror_is_a_symmetry<R: Rules>(seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = Position::<R>::start();
        for _ in 0..150 {
            let list = movegen::legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            let mirrored: std::collections::BTreeSet<_> = successors(&pos)
                .into_iter()
                .map(|(w, b, k)| {
                    use dama::learn::train::mirror;
                    (mirror(w), mirror(b), mirror(k))
                })
                .collect();
            assert_eq!(successors(&left_right(&pos)), mirrored, "{}", R::NAME);
            checked += 1;
            pos = pos.play(&list[rng.gen_range(0..list.len())]);
        }
    }
    checked
}

#[test]
fn mirror_augmentation_only_where_the_rules_are_symmetric() {
    use dama::learn::train::{mirror_symmetric, mirrored};
    assert!(mirror_symmetric::<Dameo>() && mirror_symmetric::<Croda>());
    assert!(!mirror_symmetric::<English>());
    assert!(!mirror_symmetric::<Scandinavian>() && !mirror_symmetric::<BoyerParton>());
    assert!(mirror_is_a_symmetry::<Dameo>(1) > 3000);
    assert!(mirror_is_a_symmetry::<Croda>(2) > 3000);
    // With mirroring the trainer sees each record twice, mirrored copy in the same split.
    let records = tiny_data::<Dameo>(8);
    let cfg = TrainConfig {
        validation_every: 4,
        ..TrainConfig::default()
    };
    let (t0, v0, _) = dama::learn::train::prepare(&records, &cfg);
    let (t1, v1, _) = dama::learn::train::prepare(
        &records,
        &TrainConfig {
            mirror: true,
            ..cfg.clone()
        },
    );
    assert_eq!((t1.len(), v1.len()), (2 * t0.len(), 2 * v0.len()));
    // The validation samples alone (as `dama train` measures the quantized model on) are
    // prepare's, targets included, with and without mirroring.
    let net = dama::learn::train::FloatNet::random(3);
    for (c, v) in [
        (cfg.clone(), &v0),
        (
            TrainConfig {
                mirror: true,
                ..cfg.clone()
            },
            &v1,
        ),
    ] {
        let (_, _, scale) = dama::learn::train::prepare(&records, &c);
        let alone = dama::learn::train::validation_samples(&records, &c, scale);
        assert_eq!(alone.len(), v.len());
        let (a, b) = (
            dama::learn::train::mean_loss(&net, &alone),
            dama::learn::train::mean_loss(&net, v),
        );
        assert!(a > 0.0 && a == b, "{a} {b}");
    }
    let r = records[records.len() / 2];
    let m = mirrored(&r);
    assert_eq!(mirrored(&m), r);
    assert_ne!(m, r, "a position from mid-game is not its own mirror");
}

/// `dama gen --shard K/N`: the shards of one run are disjoint and together are the
/// unsharded run, game for game and record for record; a file is resumed only with its
/// own shard, and a malformed shard is refused.
#[test]
fn gen_shards_are_disjoint_and_make_the_whole_run() {
    use std::collections::{BTreeMap, BTreeSet};
    let dir = std::env::temp_dir().join(format!("dama-gen-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gen = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let p = path.to_str().unwrap().to_string();
        let mut a = vec![
            "gen", "-v", "english", "--games", "7", "--nodes", "150", "--seed", "9", "-t", "2",
            "--out", &p,
        ];
        a.extend_from_slice(extra);
        let (code, _, err) = dama(&a);
        assert_eq!(code, 0, "{err}");
        path
    };
    // Records grouped by game number, in the order they were written within a game.
    let games = |path: &std::path::Path| -> BTreeMap<u32, Vec<Record>> {
        let mut by_game: BTreeMap<u32, Vec<Record>> = BTreeMap::new();
        for r in data::read(path, "english").unwrap() {
            by_game.entry(r.game).or_default().push(r);
        }
        by_game
    };
    let whole = games(&gen("whole.bin", &[]));
    assert_eq!(
        whole.keys().copied().collect::<Vec<_>>(),
        (0..7).collect::<Vec<_>>()
    );
    let mut union = BTreeMap::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let part = games(&gen(&format!("shard{k}.bin"), &["--shard", &shard]));
        let want: BTreeSet<u32> = (0..7).filter(|g| g % 3 == k - 1).collect();
        assert_eq!(
            part.keys().copied().collect::<BTreeSet<_>>(),
            want,
            "shard {shard}"
        );
        for (g, records) in part {
            assert!(union.insert(g, records).is_none(), "game {g} in two shards");
        }
    }
    assert_eq!(union, whole);
    // Resuming a shard's file as another shard is refused, naming the game.
    let p = dir.join("shard1.bin");
    let p = p.to_str().unwrap();
    let (code, _, err) = dama(&[
        "gen", "-v", "english", "--games", "7", "--nodes", "150", "--seed", "9", "--out", p,
        "--resume", "--shard", "2/3",
    ]);
    assert_eq!(code, 2);
    assert!(
        // Which game is named depends on the order the two threads wrote them in (the
        // last game of a file is played again on resume): one of shard 1's.
        ["holds game 0,", "holds game 3,", "holds game 6,"]
            .iter()
            .any(|g| err.contains(g))
            && err.contains("which is not in shard 2/3"),
        "{err}"
    );
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        let (code, _, err) = dama(&["gen", "-v", "english", "--out", p, "--shard", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("is not a shard: write K/N"), "{bad}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ballot's depth-4 score from White's view, as `dama gen --openings` measures balance.
fn white_score_at_depth_4<R: Rules>(engine: &mut Engine<R>, game: &Game<R>) -> i32 {
    let limits = Limits {
        depth: Some(4),
        ..Default::default()
    };
    engine.new_game();
    engine.set_game(game.clone());
    let score = engine.search(&limits, 1, &|_| {}).lines[0].score;
    match game.position().side() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// `dama gen --openings`: game i starts from line i mod N of the file, then the random
/// plies keep that line's balance (no capture pending, a depth-4 score within 0.4 men of
/// the line's); the first record is the
/// position the opening reaches; a file is resumed only with the same openings.
#[test]
fn gen_from_openings_keeps_each_lines_balance() {
    let text = std::fs::read_to_string("openings/english-ballots.openings").unwrap();
    let lines = read_openings::<English>(&text).unwrap();
    assert_eq!(lines.len(), 156);
    let mut engine = Engine::<English>::new(1, 1);
    engine.set_evaluation(Evaluation::classic::<English>());
    let mut seen = std::collections::BTreeSet::new();
    for index in (0..40).chain(156..160) {
        let start = opening_game::<English>(&lines[index as usize % 156]).unwrap();
        let game = for_game_from(&mut engine, &start, 3, 5, index);
        assert_eq!(&game.moves()[..3], start.moves(), "game {index}");
        assert_eq!(game.moves().len(), 6, "game {index}: no continuation found");
        let pos = game.position();
        assert!(!movegen::has_capture(pos), "game {index}");
        let target = white_score_at_depth_4(&mut engine, &start);
        let score = white_score_at_depth_4(&mut engine, &game);
        assert!(
            (score - target).abs() <= EVEN,
            "game {index}: {target} then {score}"
        );
        seen.insert(game.position().hash());
        assert_eq!(
            for_game_from(&mut engine, &start, 3, 5, index).moves(),
            game.moves(),
            "game {index} is not reproducible"
        );
    }
    // The same ballot (games 0 and 156) goes on differently.
    assert_eq!(seen.len(), 44);
    // play_game writes from the position the opening reaches.
    let cfg = GenConfig {
        games: 2,
        limits: Limits {
            nodes: Some(200),
            ..Default::default()
        },
        opening_plies: 3,
        max_plies: 200,
        seed: 5,
        evaluation: Evaluation::classic::<English>(),
        openings: lines.clone(),
    };
    let records = play_game(&mut engine, &cfg, 7);
    let opened = for_game_from(
        &mut engine,
        &opening_game::<English>(&lines[7]).unwrap(),
        3,
        5,
        7,
    );
    let first = records[0].position::<English>().unwrap();
    assert_eq!(first.hash(), opened.position().hash());
    // From the command line: a file is resumed only with the same openings.
    let dir = std::env::temp_dir().join(format!("dama-gen-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let two = dir.join("two.openings");
    std::fs::write(&two, "11-15 23-19 8-11\n11-15 22-18 15x22\n").unwrap();
    let bad = dir.join("bad.openings");
    std::fs::write(&bad, "11-15 23-19 8-11\n11-16 16-20\n").unwrap();
    let out = dir.join("o.bin");
    let gen = |file: &std::path::Path, extra: &[&str]| {
        let mut a = vec![
            "gen",
            "-v",
            "english",
            "--games",
            "3",
            "--nodes",
            "150",
            "--opening-plies",
            "2",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        dama(&a)
    };
    let (code, stdout, err) = gen(&two, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("gen: 3 games"), "{stdout}");
    let mut games: Vec<u32> = data::read(&out, "english")
        .unwrap()
        .iter()
        .map(|r| r.game)
        .collect();
    games.dedup();
    assert_eq!(games, vec![0, 1, 2]);
    let (code, _, err) = gen(&bad, &["--resume"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.openings: openings line 2"), "{err}");
    let (code, _, err) = gen(&dir.join("none.openings"), &["--resume"]);
    assert_eq!(code, 2);
    assert!(err.contains("none.openings"), "{err}");
    std::fs::write(&bad, "11-15 23-19 8-11\n").unwrap();
    let (code, _, err) = gen(&bad, &["--resume"]);
    assert_eq!(code, 2);
    assert!(err.contains("or openings"), "{err}");
    let (code, _, err) = gen(&two, &["--resume"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
