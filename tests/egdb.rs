//! Endgame databases: the retrograde builder against an independent forward solver,
//! the exact predecessor generator, the verify pass, colour symmetry, the file format
//! and the W/D/L counts of every slice of up to three pieces in every variant.
//!
//! Two tiers. The default one checks the forward solver and the predecessors on every
//! position of up to 2 pieces and on fixed samples of the 3-piece slices. The deep tier
//! (`#[ignore]`d: `cargo test --release -- --ignored`) checks every 3-piece position, and
//! samples of 4-piece positions (`four_piece_samples_*`, up to a quarter of an hour each
//! for croda and dameo; CI skips them with `--skip four_piece_samples`).

mod common;

use dama::egdb::build::{predecessors, solve, SliceStats};
use dama::egdb::builder::{build_all, solve_all, BuildEvent};
use dama::egdb::file;
use dama::egdb::verify::verify_slice;
use dama::egdb::{Indexer, Material, Tables, Value};
use dama::rules::{BoyerParton, Croda, Dameo, English, Rules, Scandinavian};
use dama::{movegen, Bitboard, Color, Position};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

type Key = (u64, u64, u64, bool);

/// A multiplicative hasher: the solver's maps hold millions of keys.
#[derive(Default)]
struct Mix(u64);

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
}

type Map<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Mix>>;
type Set<K> = HashSet<K, std::hash::BuildHasherDefault<Mix>>;

fn key<R: Rules>(p: &Position<R>) -> Key {
    (
        p.pieces(Color::White).0,
        p.pieces(Color::Black).0,
        p.all_kings().0,
        p.side() == Color::Black,
    )
}

/// Every position of 2..=`max` pieces with at least one piece a side, enumerated
/// directly: each set of squares with each assignment of piece kinds, both sides to move.
fn every_position<R: Rules>(max: usize) -> Vec<Position<R>> {
    let squares: Vec<u32> = (0..64).filter(|s| R::BOARD.0 >> s & 1 == 1).collect();
    let mut out = Vec::new();
    fn rec<R: Rules>(
        squares: &[u32],
        from: usize,
        chosen: &mut Vec<u32>,
        max: usize,
        out: &mut Vec<Position<R>>,
    ) {
        if chosen.len() >= 2 {
            // 4^n kinds: 0 white man, 1 white king, 2 black man, 3 black king.
            for kinds in 0..(1u32 << (2 * chosen.len())) {
                let (mut w, mut b, mut k) = (0u64, 0u64, 0u64);
                for (i, &s) in chosen.iter().enumerate() {
                    let kind = kinds >> (2 * i) & 3;
                    if kind < 2 {
                        w |= 1 << s;
                    } else {
                        b |= 1 << s;
                    }
                    if kind & 1 == 1 {
                        k |= 1 << s;
                    }
                }
                if w == 0 || b == 0 {
                    continue;
                }
                for side in Color::ALL {
                    if let Ok(p) = Position::<R>::new([Bitboard(w), Bitboard(b)], Bitboard(k), side)
                    {
                        out.push(p);
                    }
                }
            }
        }
        if chosen.len() == max {
            return;
        }
        for i in from..squares.len() {
            chosen.push(squares[i]);
            rec(squares, i + 1, chosen, max, out);
            chosen.pop();
        }
    }
    rec::<R>(&squares, 0, &mut Vec::new(), max, &mut out);
    out
}

/// The independent check: a plain forward solver over the positions of `positions`
/// (closed under quiet moves), given the values of every position a capture or a
/// crowning leads to in `known`. Round k decides, from the values of earlier rounds
/// only, the positions won in k (a non-capture into a position lost in k - 1, or for
/// k = 1 a capture into a lost position) and lost in k (every move goes into a won
/// position, decided earlier). Undecided positions are draws.
fn forward_solve<R: Rules>(positions: &[Position<R>], known: &mut Map<Key, Value>) {
    let value_of = |known: &Map<Key, Value>, s: &Position<R>| -> Option<Value> {
        if s.pieces(s.side()).is_empty() {
            return Some(Value::Loss(0));
        }
        known.get(&key(s)).copied()
    };
    // Positions solved before may be reached with any distance: go on at least that far.
    let horizon = known
        .values()
        .filter_map(|v| v.distance())
        .max()
        .unwrap_or(0) as u32;
    let mut open: Vec<Position<R>> = positions
        .iter()
        .filter(|p| !known.contains_key(&key(*p)))
        .copied()
        .collect();
    let mut k = 0u32;
    loop {
        let mut decided = Vec::new();
        for p in &open {
            let moves = movegen::legal_moves(p);
            if moves.is_empty() {
                if k == 0 {
                    decided.push((key(p), Value::Loss(0)));
                }
                continue;
            }
            if k == 0 {
                continue;
            }
            let mut won = false;
            let mut all_won = true;
            let mut longest = 0u32;
            for mv in moves.iter() {
                let s = p.play(mv);
                // A capture is the conversion; a crowning counts as a move.
                let exit = mv.is_capture();
                match value_of(known, &s) {
                    Some(Value::Loss(d)) => {
                        if (exit && k == 1) || (!exit && d as u32 + 1 == k) {
                            won = true;
                        }
                        all_won = false;
                    }
                    Some(Value::Win(d)) => {
                        longest = longest.max(if exit { 1 } else { d as u32 + 1 });
                    }
                    _ => all_won = false,
                }
            }
            if won {
                decided.push((key(p), Value::Win(k as u16)));
            } else if all_won && longest <= k {
                decided.push((key(p), Value::Loss(k as u16)));
            }
        }
        let progress = !decided.is_empty();
        let keys: Set<Key> = decided.iter().map(|d| d.0).collect();
        known.extend(decided);
        open.retain(|p| !keys.contains(&key(p)));
        if !progress && k > horizon + 1 {
            break;
        }
        k += 1;
    }
    for p in open {
        known.insert(key(&p), Value::Draw);
    }
}

/// The forward solver's values of every position of up to `max` pieces, solved group
/// by group: fewer pieces first, then fewer men (captures and crownings lead there).
fn forward_values<R: Rules>(max: usize) -> (Vec<Position<R>>, Map<Key, Value>) {
    let all = every_position::<R>(max);
    let mut groups: HashMap<(u32, u32), Vec<Position<R>>> = HashMap::new();
    for p in &all {
        let n = p.occupied().count();
        let men = n - p.all_kings().count();
        groups.entry((n, men)).or_default().push(*p);
    }
    let mut order: Vec<(u32, u32)> = groups.keys().copied().collect();
    order.sort();
    let mut known = Map::default();
    for g in order {
        forward_solve(&groups[&g], &mut known);
    }
    (all, known)
}

fn agrees_with_forward_solver<R: Rules>() {
    let tables = solve_all::<R>(3).expect("build");
    let (all, known) = forward_values::<R>(3);
    let mut by_value = [0usize; 3];
    for p in &all {
        let want = known[&key(p)];
        let got = tables.lookup(p).expect("readable").expect("covered");
        assert_eq!(got, want, "{}: {}", R::NAME, dama::fen::to_fen(p));
        by_value[match want {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
    }
    // Every kind of value occurs, with wins by conversion and by quiet moves.
    assert!(
        by_value.iter().all(|&n| n > 100),
        "{}: {by_value:?}",
        R::NAME
    );
    assert!(
        known.values().any(|v| matches!(v, Value::Win(d) if *d > 5)),
        "{}",
        R::NAME
    );
}

#[test]
#[ignore = "deep tier: every 3-piece position (about 40 s)"]
fn retrograde_agrees_with_a_forward_solver_dameo() {
    agrees_with_forward_solver::<Dameo>();
}

#[test]
#[ignore = "deep tier: every 3-piece position (about 40 s)"]
fn retrograde_agrees_with_a_forward_solver_croda() {
    agrees_with_forward_solver::<Croda>();
}

#[test]
#[ignore = "deep tier: every 3-piece position"]
fn retrograde_agrees_with_a_forward_solver_scandinavian() {
    agrees_with_forward_solver::<Scandinavian>();
}

#[test]
#[ignore = "deep tier: every 3-piece position"]
fn retrograde_agrees_with_a_forward_solver_boyer_parton() {
    agrees_with_forward_solver::<BoyerParton>();
}

#[test]
#[ignore = "deep tier: every 3-piece position"]
fn retrograde_agrees_with_a_forward_solver_english() {
    agrees_with_forward_solver::<English>();
}

/// The default tier's forward check, against the builder's tables of up to 3 pieces:
/// every position of up to 2 pieces, then a fixed sample of 3-piece positions (see
/// [`sample_agrees`]) whose quiet closures stay within `closure_limit`. On 32 squares
/// the limit takes in whole groups of kings; on 64 squares the closure of a position
/// with a quiet move runs to the 3-king groups (250,000 positions and more, tens of
/// seconds), so the samples checked there are those whose moves lead to captures within
/// a few plies. The exhaustive check is [`agrees_with_forward_solver`] (deep tier).
fn agrees_with_forward_solver_on_a_sample<R: Rules>(samples: usize, closure_limit: usize) {
    let started = std::time::Instant::now();
    let tables = solve_all::<R>(3).expect("build");
    let (all, mut known) = forward_values::<R>(2);
    for p in &all {
        let want = known[&key(p)];
        let got = tables.lookup(p).expect("readable").expect("covered");
        assert_eq!(got, want, "{}: {}", R::NAME, dama::fen::to_fen(p));
    }
    let stats = sample_agrees(&tables, &mut known, 3, samples, 3, closure_limit, started);
    eprintln!(
        "{}: the {} positions of up to 2 pieces and {samples} 3-piece positions agree \
         ({stats:?}) in {:.1} s",
        R::NAME,
        all.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The largest quiet closure of a default-tier 3-piece sample: on 32 squares, and on 64.
const CLOSURE_LIMIT_32: usize = 200_000;
const CLOSURE_LIMIT_64: usize = 2_000;

#[test]
fn forward_solver_agrees_on_two_pieces_and_a_sample_dameo() {
    agrees_with_forward_solver_on_a_sample::<Dameo>(200, CLOSURE_LIMIT_64);
}

#[test]
fn forward_solver_agrees_on_two_pieces_and_a_sample_croda() {
    agrees_with_forward_solver_on_a_sample::<Croda>(200, CLOSURE_LIMIT_64);
}

#[test]
fn forward_solver_agrees_on_two_pieces_and_a_sample_scandinavian() {
    agrees_with_forward_solver_on_a_sample::<Scandinavian>(200, CLOSURE_LIMIT_32);
}

#[test]
fn forward_solver_agrees_on_two_pieces_and_a_sample_boyer_parton() {
    agrees_with_forward_solver_on_a_sample::<BoyerParton>(200, CLOSURE_LIMIT_32);
}

#[test]
fn forward_solver_agrees_on_two_pieces_and_a_sample_english() {
    agrees_with_forward_solver_on_a_sample::<English>(200, CLOSURE_LIMIT_32);
}

/// The predecessors of every position of a slice are exactly the positions of the
/// slice with a legal quiet move into it: each one found has such a move (checked by
/// generating its moves), none is found twice, and as many are found as there are
/// such moves in the whole slice, so none is missed.
fn predecessors_are_exact<R: Rules>(material: Material) {
    let ix = Indexer::<R>::new(material);
    let (mut edges, mut found, mut with_preds, mut positions) = (0u64, 0u64, 0u64, 0u64);
    let mut preds = Vec::new();
    for i in 0..ix.size() {
        let Some(q) = ix.position(i) else { continue };
        assert_eq!(ix.index(&q), i);
        positions += 1;
        edges += movegen::legal_moves(&q)
            .iter()
            .filter(|mv| Material::of(&q.play(mv)) == material)
            .count() as u64;
        preds.clear();
        predecessors(&q, &mut preds);
        assert_sound_predecessors(material, &q, &preds);
        found += preds.len() as u64;
        with_preds += u64::from(!preds.is_empty());
    }
    assert_eq!(found, edges, "{} {material}: predecessors missed", R::NAME);
    assert!(with_preds > positions / 4);
}

/// The predecessors `preds` found for `q` are distinct, and each has a legal quiet move
/// into `q`.
fn assert_sound_predecessors<R: Rules>(material: Material, q: &Position<R>, preds: &[Position<R>]) {
    let distinct: HashSet<Key> = preds.iter().map(key).collect();
    assert_eq!(
        distinct.len(),
        preds.len(),
        "{} {material}: a predecessor twice",
        R::NAME
    );
    for p in preds {
        assert!(
            movegen::legal_moves(p)
                .iter()
                .any(|mv| key(&p.play(mv)) == key(q)),
            "{} {material}: {} is no predecessor of {}",
            R::NAME,
            dama::fen::to_fen(p),
            dama::fen::to_fen(q)
        );
    }
}

/// The sampled form of [`predecessors_are_exact`]: for `samples` random positions `q`
/// of the slice (a fixed seed), the predecessors found are distinct and each has a legal
/// quiet move into `q`, and `q` is found among the predecessors of every position of
/// the slice that its own quiet moves lead to, so no edge from a sampled position is
/// missed.
fn predecessors_agree_on_a_sample<R: Rules>(material: Material, samples: usize, seed: u64) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let ix = Indexer::<R>::new(material);
    let (mut checked, mut edges) = (0usize, 0u64);
    let mut preds = Vec::new();
    while checked < samples {
        let i = rng.gen_range(0..ix.size());
        let Some(q) = ix.position(i) else { continue };
        assert_eq!(ix.index(&q), i);
        checked += 1;
        preds.clear();
        predecessors(&q, &mut preds);
        assert_sound_predecessors(material, &q, &preds);
        for mv in movegen::legal_moves(&q).iter() {
            let s = q.play(mv);
            if Material::of(&s) != material {
                continue;
            }
            edges += 1;
            preds.clear();
            predecessors(&s, &mut preds);
            assert!(
                preds.iter().any(|p| key(p) == key(&q)),
                "{} {material}: {} is missed among the predecessors of {}",
                R::NAME,
                dama::fen::to_fen(&q),
                dama::fen::to_fen(&s)
            );
        }
    }
    assert!(edges > 0, "{} {material}: no quiet move sampled", R::NAME);
}

/// The default tier's predecessor check: every 2-piece slice whole, and a fixed sample
/// of each slice that [`predecessors_are_exact_in_every_variant`] checks whole.
#[test]
fn predecessors_are_exact_on_two_pieces_and_a_sample_in_every_variant() {
    for m in Material::all_up_to(2) {
        predecessors_are_exact::<Dameo>(m);
        predecessors_are_exact::<Croda>(m);
        predecessors_are_exact::<Scandinavian>(m);
        predecessors_are_exact::<BoyerParton>(m);
        predecessors_are_exact::<English>(m);
    }
    for (seed, m) in ["2010", "1101", "0201", "2001", "1110"]
        .into_iter()
        .enumerate()
    {
        let m = Material::from_stem(m).unwrap();
        let seed = seed as u64;
        predecessors_agree_on_a_sample::<Dameo>(m, 2000, seed);
        predecessors_agree_on_a_sample::<Croda>(m, 2000, seed);
        predecessors_agree_on_a_sample::<Scandinavian>(m, 2000, seed);
        predecessors_agree_on_a_sample::<BoyerParton>(m, 2000, seed);
        predecessors_agree_on_a_sample::<English>(m, 2000, seed);
    }
    predecessors_agree_on_a_sample::<Dameo>(Material::from_stem("3001").unwrap(), 2000, 9);
}

#[test]
#[ignore = "deep tier: every position of five 3-piece slices in five variants (about 40 s)"]
fn predecessors_are_exact_in_every_variant() {
    // Dameo's line moves need two men of a side; kings of both kinds fly or step.
    for m in ["2010", "1101", "0201", "2001", "1110"] {
        let m = Material::from_stem(m).unwrap();
        predecessors_are_exact::<Dameo>(m);
        predecessors_are_exact::<Croda>(m);
        predecessors_are_exact::<Scandinavian>(m);
        predecessors_are_exact::<BoyerParton>(m);
        predecessors_are_exact::<English>(m);
    }
    // Three men in a line (Dameo D2); a king in a line's way is in 1101 and 1110.
    predecessors_are_exact::<Dameo>(Material::from_stem("3001").unwrap());
}

/// The value of a position equals the value of the position turned 180 degrees with
/// the colours swapped, also in slices whose two orientations are both stored.
fn colour_symmetric<R: Rules>() {
    let tables = solve_all::<R>(3).expect("build");
    let mut symmetric_slices = 0;
    for p in every_position::<R>(3) {
        let m = Material::of(&p);
        symmetric_slices += usize::from(m == m.flipped());
        assert_eq!(
            tables.lookup(&p).unwrap(),
            tables.lookup(&p.turned()).unwrap(),
            "{}: {}",
            R::NAME,
            dama::fen::to_fen(&p)
        );
    }
    assert!(symmetric_slices > 1000);
}

#[test]
fn values_are_colour_symmetric() {
    colour_symmetric::<Dameo>();
    colour_symmetric::<Croda>();
    colour_symmetric::<Scandinavian>();
    colour_symmetric::<BoyerParton>();
    colour_symmetric::<English>();
}

/// The verify pass finds every slice consistent, and finds a value changed by hand.
fn verify_catches_a_wrong_value<R: Rules>() {
    let tables = solve_all::<R>(3).expect("build");
    for m in tables.materials() {
        let (checked, bad, _) = verify_slice(&tables, m, 3).unwrap();
        assert!(checked > 0);
        assert_eq!(bad, 0, "{} {m}", R::NAME);
    }
    let m = Material::from_stem("1110").unwrap();
    let mut values = (*tables.values(m).unwrap().unwrap()).clone();
    let ix = Indexer::<R>::new(m);
    let i = (0..ix.size())
        .find(|&i| ix.position(i).is_some() && Value::decode(values[i as usize]) != Value::Draw)
        .unwrap();
    values[i as usize] = Value::Draw.encode();
    let mut broken = Tables::<R>::new();
    for k in tables.materials() {
        broken.insert(k, tables.values(k).unwrap().unwrap());
    }
    broken.insert(m, Arc::new(values));
    let (_, bad, examples) = verify_slice(&broken, m, 3).unwrap();
    assert!(bad >= 1, "{}", R::NAME);
    assert_eq!(examples[0].stored, Value::Draw);
}

#[test]
fn verify_finds_consistent_slices_and_catches_a_wrong_value() {
    verify_catches_a_wrong_value::<Dameo>();
    verify_catches_a_wrong_value::<Croda>();
    verify_catches_a_wrong_value::<Scandinavian>();
    verify_catches_a_wrong_value::<BoyerParton>();
    verify_catches_a_wrong_value::<English>();
}

#[test]
fn value_encoding_round_trips() {
    for d in (0..=300u16).chain([0x7FFE]) {
        assert_eq!(Value::decode(Value::Loss(d).encode()), Value::Loss(d));
        if d > 0 {
            assert_eq!(Value::decode(Value::Win(d).encode()), Value::Win(d));
        }
        for v in [Value::Win(d.max(1)), Value::Loss(d)] {
            match Value::byte_of_entry(v.encode()) {
                Some(b) => {
                    assert!(d <= 127);
                    assert_eq!(Value::entry_of_byte(b), v.encode());
                }
                None => assert!(d > 127),
            }
        }
    }
    assert_eq!(Value::decode(Value::Draw.encode()), Value::Draw);
    assert_eq!(Value::byte_of_entry(Value::Draw.encode()), Some(0));
}

#[test]
fn slice_files_round_trip_and_refuse_damage() {
    let m = Material::from_stem("1101").unwrap();
    let mut values: Vec<u16> = (0..200_000u32)
        .map(|i| Value::Win(((i / 7) % 5) as u16 * 20 + 1).encode())
        .collect();
    values[12345] = Value::Loss(127).encode();
    values[12346] = Value::Draw.encode();
    let bytes = file::encode("english", m, &values);
    assert!(
        bytes.len() < values.len() / 2,
        "run-length coding packs runs"
    );
    let n = values.len() as u64;
    assert_eq!(file::decode(&bytes, "english", m, n).unwrap(), values);
    // Every single flipped byte is refused.
    for at in (0..bytes.len()).step_by(97).chain([bytes.len() - 1, 9, 20]) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        assert!(file::decode(&bad, "english", m, n).is_err(), "byte {at}");
    }
    let err = |b: &[u8], v: &str, m: Material, n: u64| file::decode(b, v, m, n).unwrap_err();
    assert!(err(&bytes[..bytes.len() / 2], "english", m, n).contains("truncated"));
    assert!(err(&bytes[..40], "english", m, n).contains("truncated"));
    assert!(err(&bytes[..5], "english", m, n).contains("magic"));
    assert!(err(&bytes, "dameo", m, n).contains("for english"));
    assert!(err(&bytes, "english", m.flipped(), n).contains("slice"));
    assert!(err(&bytes, "english", m, n + 1).contains("positions"));
    let mut other_version = bytes.clone();
    other_version[8] = 9;
    assert!(err(&other_version, "english", m, n).contains("version 9"));
    // A distance above 127 makes the file wide (two bytes a position).
    let mut wide = values.clone();
    wide[199_999] = Value::Loss(300).encode();
    let wide_bytes = file::encode("english", m, &wide);
    assert!(wide_bytes.len() > bytes.len());
    assert_eq!(file::decode(&wide_bytes, "english", m, n).unwrap(), wide);
    // Literal runs longer than one control byte and repeats longer than one.
    for data in [
        (0..1000u32)
            .map(|i| (i * 37 % 251) as u8)
            .collect::<Vec<_>>(),
        vec![7u8; 1000],
        vec![],
    ] {
        let mut packed = Vec::new();
        file::pack(&data, &mut packed);
        let mut out = Vec::new();
        file::unpack(&packed, data.len(), &mut out).unwrap();
        assert_eq!(out, data);
    }
}

/// The W/D/L counts of every slice of up to three pieces (both sides to move), in build
/// order: any change to the rules or the builder that alters one value fails here.
const COUNTS: &[(&str, &str, [u64; 3])] = &include!("fixtures/egdb_counts.in");

#[test]
fn slice_counts_match_the_table() {
    let mut seen = 0;
    macro_rules! check {
        ($R:ty) => {{
            let tables = solve_all::<$R>(3).unwrap();
            for m in tables.materials() {
                let s = SliceStats::of::<$R>(m, &tables.values(m).unwrap().unwrap());
                let want = COUNTS
                    .iter()
                    .find(|c| c.0 == <$R>::NAME && c.1 == m.stem())
                    .unwrap_or_else(|| panic!("{} {m} is not in the table", <$R>::NAME));
                assert_eq!([s.wins, s.draws, s.losses], want.2, "{} {m}", <$R>::NAME);
                seen += 1;
            }
        }};
    }
    check!(Dameo);
    check!(Croda);
    check!(Scandinavian);
    check!(BoyerParton);
    check!(English);
    assert_eq!(seen, COUNTS.len());
}

#[test]
fn build_resumes_and_rebuilds_a_damaged_file() {
    let dir = std::env::temp_dir().join(format!("dama-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let events = std::sync::Mutex::new(Vec::new());
    let log = |e: &BuildEvent| {
        if !matches!(e, BuildEvent::Progress { .. }) {
            events.lock().unwrap().push(format!("{e:?}"));
        }
    };
    build_all::<English>(&dir, 3, &log).unwrap();
    let files = |d: &std::path::Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d.join("english"))
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.display().to_string(), std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let first = files(&dir);
    assert_eq!(first.len(), Material::all_up_to(3).len());
    let damaged = dir.join("english").join("1010.egdb");
    let mut b = std::fs::read(&damaged).unwrap();
    let last = b.len() - 20;
    b[last] ^= 1;
    std::fs::write(&damaged, b).unwrap();
    std::fs::remove_file(dir.join("english").join("0101.egdb")).unwrap();
    events.lock().unwrap().clear();
    build_all::<English>(&dir, 3, &log).unwrap();
    let ev = events.lock().unwrap().clone();
    assert_eq!(files(&dir), first, "the rebuilt files are the same");
    assert!(ev
        .iter()
        .any(|e| e.contains("Rebuilding") && e.contains("checksum")));
    assert_eq!(
        ev.iter().filter(|e| e.contains("Started")).count(),
        2,
        "{ev:?}"
    );
    assert_eq!(
        ev.iter().filter(|e| e.contains("Kept")).count(),
        Material::all_up_to(3).len() - 2
    );
    // Lookups through the files agree with the tables built in memory.
    let on_disk = Tables::<English>::open(&dir);
    let memory = solve_all::<English>(3).unwrap();
    for p in every_position::<English>(3).iter().step_by(7) {
        assert_eq!(on_disk.lookup(p).unwrap(), memory.lookup(p).unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A slice whose conversions lead to a slice that is not there is refused.
#[test]
fn a_missing_smaller_slice_is_an_error() {
    let tables = Tables::<English>::new();
    let err = solve(&tables, Material::from_stem("1010").unwrap(), &|_, _| {}).unwrap_err();
    assert!(err.contains("not built"), "{err}");
}

/// How a sample of [`sample_agrees`] went.
#[derive(Debug, Default)]
struct SampleStats {
    /// Win, draw, loss among the samples checked.
    kinds: [usize; 3],
    /// The samples checked by their number of kings (0 to 4).
    by_kings: [usize; 5],
    /// Samples skipped: their quiet closure passed the limit.
    skipped: usize,
}

/// The forward solver agrees with `tables` on `samples` random positions of `pieces`
/// pieces (random slice, random index; a fixed seed): each is solved with everything it
/// reaches without a capture (crownings included), on top of the values in `known`
/// (the forward solver's values of every position of fewer pieces), which it extends.
/// A sample whose quiet closure passes `closure_limit` positions is skipped (and
/// counted as skipped).
fn sample_agrees<R: Rules>(
    tables: &Tables<R>,
    known: &mut Map<Key, Value>,
    pieces: u32,
    samples: usize,
    seed: u64,
    closure_limit: usize,
    started: std::time::Instant,
) -> SampleStats {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let slices: Vec<Material> = tables
        .materials()
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .collect();
    let mut checked = 0;
    let mut stats = SampleStats::default();
    while checked < samples {
        let m = slices[rng.gen_range(0..slices.len())];
        let ix = Indexer::<R>::new(m);
        let Some(start) = ix.position(rng.gen_range(0..ix.size())) else {
            continue;
        };
        if !known.contains_key(&key(&start)) {
            let mut closure = vec![start];
            let mut seen: Set<Key> = Set::default();
            seen.insert(key(&start));
            let mut at = 0;
            // Give up on a sample as soon as its closure passes the limit: the closure
            // of a position with several rook kings on 64 squares runs to tens of millions.
            while at < closure.len() && closure.len() <= closure_limit {
                let p = closure[at];
                at += 1;
                for mv in movegen::legal_moves(&p).iter() {
                    let s = p.play(mv);
                    if !mv.is_capture() && !known.contains_key(&key(&s)) && seen.insert(key(&s)) {
                        closure.push(s);
                    }
                }
            }
            if closure.len() > closure_limit {
                stats.skipped += 1;
                continue;
            }
            let mut by_men: HashMap<u32, Vec<Position<R>>> = HashMap::new();
            for p in closure {
                by_men
                    .entry(p.occupied().count() - p.all_kings().count())
                    .or_default()
                    .push(p);
            }
            let mut order: Vec<u32> = by_men.keys().copied().collect();
            order.sort();
            for men in order {
                forward_solve(&by_men[&men], known);
            }
        }
        let want = known[&key(&start)];
        assert_eq!(
            tables.lookup(&start).unwrap().unwrap(),
            want,
            "{}: {}",
            R::NAME,
            dama::fen::to_fen(&start)
        );
        stats.kinds[match want {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
        stats.by_kings[start.all_kings().count() as usize] += 1;
        checked += 1;
        if pieces >= 4 && checked % 10 == 0 {
            eprintln!(
                "{}: {checked}/{samples} samples agree, {} skipped, {:.0} s",
                R::NAME,
                stats.skipped,
                started.elapsed().as_secs_f64()
            );
        }
    }
    stats
}

/// The forward solver also agrees on a random sample of 4-piece positions: each is
/// solved with everything it reaches without a capture (crownings included), on top of
/// the forward solver's 3-piece values. Minutes in release mode: run with `--ignored`.
fn four_piece_sample<R: Rules>(samples: usize) {
    /// The largest quiet closure a sample may have: beyond it the sample is skipped (and
    /// counted as skipped).
    const CLOSURE_LIMIT: usize = 1_500_000;
    let started = std::time::Instant::now();
    let tables = solve_all::<R>(4).expect("build");
    let (_, mut known) = forward_values::<R>(3);
    eprintln!(
        "{}: 4-piece databases and 3-piece forward values in {:.0} s",
        R::NAME,
        started.elapsed().as_secs_f64()
    );
    let SampleStats {
        kinds,
        by_kings,
        skipped,
    } = sample_agrees(&tables, &mut known, 4, samples, 4, CLOSURE_LIMIT, started);
    eprintln!(
        "{}: {samples} 4-piece positions agree (win/draw/loss {kinds:?}; with 0-4 kings \
         {by_kings:?}; {skipped} samples skipped whose quiet closure exceeds {CLOSURE_LIMIT} \
         positions)",
        R::NAME
    );
}

/// The forward solver against the builder on random 4-piece positions (slow: run with
/// `cargo test --release --test egdb -- --ignored`), english.
#[test]
#[ignore = "deep tier, long: 4-piece databases (CI skips four_piece_samples)"]
fn four_piece_samples_english() {
    four_piece_sample::<English>(200);
}

/// As [`four_piece_samples_english`], scandinavian.
#[test]
#[ignore = "deep tier, long: 4-piece databases (CI skips four_piece_samples)"]
fn four_piece_samples_scandinavian() {
    four_piece_sample::<Scandinavian>(200);
}

/// As [`four_piece_samples_english`], boyer-parton.
#[test]
#[ignore = "deep tier, long: 4-piece databases (CI skips four_piece_samples)"]
fn four_piece_samples_boyer_parton() {
    four_piece_sample::<BoyerParton>(200);
}

/// As [`four_piece_samples_english`], croda (slower: more squares and rook kings).
#[test]
#[ignore = "deep tier, long: 4-piece databases (CI skips four_piece_samples)"]
fn four_piece_samples_croda() {
    four_piece_sample::<Croda>(100);
}

/// As [`four_piece_samples_english`], dameo.
#[test]
#[ignore = "deep tier, long: 4-piece databases (CI skips four_piece_samples)"]
fn four_piece_samples_dameo() {
    four_piece_sample::<Dameo>(100);
}

fn dama(args: &[&str]) -> (i32, String, String) {
    common::bin::run(common::bin::command_without_databases().args(args))
}

/// `dama egdb build / probe / verify` and `dama analyze --egdb-dir` from the command
/// line, with their errors.
#[test]
fn egdb_commands() {
    let dir = std::env::temp_dir().join(format!("dama-egdb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, out, _) = dama(&["egdb", "build", "-v", "scandinavian", "-p", "3", "--dir", d]);
    assert_eq!(code, 0);
    assert!(out.contains("built 9 slices (9 new"), "{out}");
    // Kept on a second run.
    let (code, out, err) = dama(&["egdb", "build", "-v", "scandinavian", "-p", "3", "--dir", d]);
    assert_eq!(code, 0);
    assert!(out.contains("built 9 slices (0 new"), "{out}");
    assert_eq!(err.matches("kept (already built)").count(), 9, "{err}");

    let fen = "W:WKa1,Kc1:BKh8";
    let (code, out, _) = dama(&[
        "egdb",
        "probe",
        "-v",
        "scandinavian",
        "--fen",
        fen,
        "--dir",
        d,
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["value"], "win");
    let dist = v["distance"].as_u64().unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 13);
    // The position's value is its best move's.
    let best = moves
        .iter()
        .filter(|m| m["value"] == "win")
        .map(|m| m["distance"].as_u64().unwrap())
        .min();
    assert_eq!(best, Some(dist));
    assert!(moves.iter().any(|m| m["value"] == "draw"));
    let (code, out, _) = dama(&[
        "egdb",
        "probe",
        "-v",
        "scandinavian",
        "--fen",
        fen,
        "--dir",
        d,
    ]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!(
            "0m2k v 0m1k: win in {dist} (plies to the next capture)"
        )),
        "{out}"
    );

    let (code, _, err) = dama(&[
        "egdb",
        "probe",
        "-v",
        "scandinavian",
        "--fen",
        "W:Wa1,c1,e1:Bh8",
        "--dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no scandinavian database for slice 3m0k v 1m0k"),
        "{err}"
    );
    assert!(err.contains("--pieces 4"), "{err}");
    let (code, _, err) = dama(&[
        "egdb",
        "probe",
        "-v",
        "scandinavian",
        "--fen",
        "W:Wa2:Bh8",
        "--dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: "), "{err}");

    let (code, out, _) = dama(&["egdb", "verify", "-v", "scandinavian", "--dir", d]);
    assert_eq!(code, 0);
    assert!(
        out.contains("verified 9 slices") && out.contains("all consistent"),
        "{out}"
    );

    // The files alone, then with the built-in slices (scandinavian's 4 pieces): the 9
    // files are read and the other 14 solved in memory; the root's value is the same.
    for (builtin, account) in [
        (false, "egdb: 9 slices of scandinavian, complete to 3 pieces (largest 3), read when first used in"),
        (true, "egdb: 23 slices of scandinavian, complete to 4 pieces (largest 4), 14 solved in memory, the others read when first used in"),
    ] {
        let mut args = vec![
            "analyze", "-v", "scandinavian", "--fen", fen, "--depth", "4", "--json",
            "--egdb-dir", d,
        ];
        if !builtin {
            args.push("--no-egdb-builtin");
        }
        let (code, out, err) = dama(&args);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains(account), "{err}");
        let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(last["egdb"], "win");
        assert_eq!(last["egdb_dtc"].as_u64(), Some(dist));
        assert!(last["egdb_hits"].as_u64().unwrap() > 0);
    }

    // A damaged file: verify and probe say which file and why, and exit non-zero.
    let path = dir.join("scandinavian").join("0201.egdb");
    let mut b = std::fs::read(&path).unwrap();
    let n = b.len();
    b[n / 2] ^= 0x55;
    std::fs::write(&path, b).unwrap();
    let (code, _, err) = dama(&["egdb", "verify", "-v", "scandinavian", "--dir", d]);
    assert_eq!(code, 2);
    assert!(
        err.contains("0201.egdb") && err.contains("checksum"),
        "{err}"
    );
    let (code, _, err) = dama(&[
        "egdb",
        "probe",
        "-v",
        "scandinavian",
        "--fen",
        fen,
        "--dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("checksum"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Won 3-piece positions drawn from the databases are won by dama playing itself with
/// them (a shallow fixed depth, so the run is exact): the database scores rise with
/// every capture and every ply nearer to one, so the conversion cannot stall.
#[test]
fn database_play_converts_won_positions() {
    use dama::play::conversion::{play_out, won_positions};
    fn run<R: Rules>() {
        let tables = Arc::new(solve_all::<R>(3).unwrap());
        let limits = dama::engine::time::Limits {
            depth: Some(2),
            ..Default::default()
        };
        for p in won_positions(&tables, 3, 40, 9).unwrap() {
            // The engine's move at a root the databases hold keeps the win (whatever
            // the search thinks of the positions below).
            let mut e = dama::engine::Engine::<R>::new(1, 1);
            e.set_egdb(Some(tables.clone()));
            e.set_game(dama::game::Game::new(p));
            let mv = e.search(&limits, 1, &|_| {}).best.unwrap();
            let values = tables.move_values(&p).unwrap();
            let chosen = values.iter().find(|(m, _)| *m == mv).unwrap().1.unwrap();
            assert!(
                matches!(chosen, Value::Win(_)),
                "{}: {} {chosen:?}",
                R::NAME,
                dama::fen::to_fen(&p)
            );
        }
        for p in won_positions(&tables, 3, 12, 7).unwrap() {
            let r = play_out(p, &limits, Some(tables.clone()), Some(&tables), 300).unwrap();
            assert!(r.won, "{}: {} {r:?}", R::NAME, dama::fen::to_fen(&p));
            let Value::Win(d) = tables.lookup(&p).unwrap().unwrap() else {
                panic!("not won")
            };
            assert!(r.plies >= d as u32);
        }
    }
    run::<Dameo>();
    run::<Croda>();
    run::<Scandinavian>();
    run::<BoyerParton>();
    run::<English>();
}

/// Database scores: every win above every evaluation (the network clamps at 20000) and
/// below every forced win; fewer pieces first, then the quicker capture; a loss the
/// negative; the parts read back, and the protocol writes `90 - n - dtc/1000`.
#[test]
fn database_scores_order_by_pieces_then_distance() {
    use dama::engine::search::{egdb_parts, egdb_score};
    let mate_bound = dama::types::MATE_BOUND;
    let mut wins = Vec::new();
    for pieces in 1..=8u32 {
        for d in [1u16, 2, 50, 145, 511] {
            let s = egdb_score(Value::Win(d), pieces);
            assert!(s > 20_000 && s < mate_bound, "{pieces} {d}: {s}");
            assert_eq!(egdb_score(Value::Loss(d), pieces), -s);
            assert_eq!(egdb_parts(s), Some((true, pieces, d as u32)));
            assert_eq!(egdb_parts(-s), Some((false, pieces, d as u32)));
            wins.push((pieces, d, s));
        }
    }
    for &(p1, d1, s1) in &wins {
        for &(p2, d2, s2) in &wins {
            // Fewer pieces win; with as many pieces, the shorter distance.
            let better = p1 < p2 || (p1 == p2 && d1 < d2);
            assert_eq!(s1 > s2, better, "{p1}/{d1} against {p2}/{d2}");
        }
    }
    assert_eq!(egdb_score(Value::Draw, 5), 0);
    assert_eq!(egdb_parts(0), None);
    assert_eq!(egdb_parts(19_999), None);
    assert_eq!(
        dama::protocol::score_text(egdb_score(Value::Win(7), 5)),
        "84.993"
    );
    assert_eq!(
        dama::protocol::score_text(egdb_score(Value::Loss(7), 5)),
        "-84.993"
    );
}
