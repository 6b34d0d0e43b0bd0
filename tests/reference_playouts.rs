//! The fast move generator against the slow mailbox reference of
//! `tests/common/reference.rs`, over fixed-seed random playouts in all five variants:
//! from the start position, in capture- and king-seeking games, and from random sparse
//! positions with kings. After every move the incremental hash, the generator's
//! invariants, the move and path sets, notation and FEN round trips and the draw counters
//! are checked. Also: the reference reproduces `docs/rules.md` table P and the rule examples.
//!
//! A failure prints the FEN of the position, so it can be replayed with
//! `fen::parse_fen`.

mod common;

use common::reference::{move_key, reference_moves, reference_paths, reference_perft, Board, Spec};
use dama::bitboard::Bitboard;
use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::{fen, movegen, notation, perft, Color, Move, MoveList, Position, Rules, Square};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::Instant;

// ---------------------------------------------------------------------------------------
// Formatting for failure messages
// ---------------------------------------------------------------------------------------

/// A move with its captured squares, e.g. `e2xg6 (takes e3,f4,g5)`.
fn move_str<R: Rules>(m: &Move) -> String {
    let name = notation::square_name::<R>;
    if m.is_capture() {
        let taken: Vec<String> = m.captured.map(name).collect();
        format!(
            "{}x{} (takes {})",
            name(m.from),
            name(m.to),
            taken.join(",")
        )
    } else {
        format!("{}-{}", name(m.from), name(m.to))
    }
}

fn moves_str<R: Rules>(moves: &[Move]) -> String {
    let v: Vec<String> = moves.iter().map(move_str::<R>).collect();
    format!("[{}]", v.join(", "))
}

fn paths_str<R: Rules>(paths: &[(Move, Vec<Square>)]) -> String {
    let v: Vec<String> = paths
        .iter()
        .map(|(m, p)| notation::path_text::<R>(p, m.is_capture()))
        .collect();
    format!("[{}]", v.join(", "))
}

/// (in `a` but not in `b`, in `b` but not in `a`), for sorted inputs.
fn difference<T: Clone + PartialEq>(a: &[T], b: &[T]) -> (Vec<T>, Vec<T>) {
    let only_a = a.iter().filter(|x| !b.contains(x)).cloned().collect();
    let only_b = b.iter().filter(|x| !a.contains(x)).cloned().collect();
    (only_a, only_b)
}

fn sorted_moves(moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort_by_key(move_key);
    v
}

fn sorted_paths(paths: &[(Move, Vec<Square>)]) -> Vec<(Move, Vec<Square>)> {
    let mut v = paths.to_vec();
    v.sort_by_key(|(m, p)| (move_key(m), p.iter().map(|s| s.index()).collect::<Vec<_>>()));
    v
}

// ---------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------

/// Checks every invariant of `p` against the reference and returns the reference paths.
fn check_position<R: Rules>(p: &Position<R>) -> Vec<(Move, Vec<Square>)> {
    let fen = fen::to_fen(p);
    let at = || format!("{} position {fen}\n{}", R::NAME, p.diagram());

    // Incremental Zobrist hash equals the recomputed one.
    assert_eq!(
        p.hash(),
        p.compute_hash(),
        "incremental hash differs, {}",
        at()
    );

    // The reference itself: each path once, each consistent with its move.
    let ref_paths = sorted_paths(&reference_paths(p));
    for w in ref_paths.windows(2) {
        assert!(w[0] != w[1], "reference repeats a path, {}", at());
    }
    for (m, path) in &ref_paths {
        assert_eq!((path[0], *path.last().unwrap()), (m.from, m.to), "{}", at());
        assert_eq!(
            m.captured.count() as usize,
            if m.is_capture() { path.len() - 1 } else { 0 }
        );
    }
    let mut ref_moves: Vec<Move> = ref_paths.iter().map(|(m, _)| *m).collect();
    ref_moves.dedup(); // sorted by move first: G1 duplicates are adjacent
    assert_eq!(reference_moves(p), ref_moves, "{}", at());
    let ref_capture = ref_moves.first().is_some_and(|m| m.is_capture());

    // The fast distinct-move list: no duplicates, equal to the reference set.
    let fast = movegen::legal_moves(p);
    let fast_sorted = sorted_moves(&fast);
    let mut fast_dedup = fast_sorted.clone();
    fast_dedup.dedup();
    assert_eq!(
        fast_dedup.len(),
        fast_sorted.len(),
        "movegen::legal_moves lists a move twice (G1): {}, {}",
        moves_str::<R>(&fast_sorted),
        at()
    );
    if fast_sorted != ref_moves {
        let (missing, extra) = difference(&ref_moves, &fast_sorted);
        panic!(
            "movegen::legal_moves differs from the reference, {}\nexpected (reference): {}\n\
             actual (fast):        {}\nmissing from fast:    {}\nextra in fast:        {}\n\
             reference paths:      {}",
            at(),
            moves_str::<R>(&ref_moves),
            moves_str::<R>(&fast_sorted),
            moves_str::<R>(&missing),
            moves_str::<R>(&extra),
            paths_str::<R>(&ref_paths),
        );
    }

    // has_moves / count / has_capture tie together.
    let count = movegen::count(p);
    assert_eq!(
        count,
        fast.len(),
        "movegen::count != legal_moves().len(), {}",
        at()
    );
    assert_eq!(
        movegen::has_moves(p),
        count > 0,
        "movegen::has_moves != (count > 0), {}",
        at()
    );
    let captures = fast.iter().filter(|m| m.is_capture()).count();
    assert!(
        captures == 0 || captures == fast.len(),
        "captures mixed with quiet moves (G2), {}",
        at()
    );
    assert_eq!(
        movegen::has_capture(p),
        captures > 0,
        "movegen::has_capture wrong, {}",
        at()
    );
    assert_eq!(movegen::has_capture(p), ref_capture, "{}", at());

    // Paths: count_paths, generate_paths and capture_paths against the reference paths.
    let ref_path_moves: Vec<Move> = ref_paths.iter().map(|(m, _)| *m).collect();
    let mut listed = MoveList::new();
    movegen::generate_paths(p, &mut listed);
    let listed = sorted_moves(&listed);
    if listed != ref_path_moves {
        let (missing, extra) = difference(&ref_path_moves, &listed);
        panic!(
            "movegen::generate_paths differs from the reference paths, {}\n\
             expected (one per path): {}\nactual: {}\nmissing: {}\nextra: {}\npaths: {}",
            at(),
            moves_str::<R>(&ref_path_moves),
            moves_str::<R>(&listed),
            moves_str::<R>(&missing),
            moves_str::<R>(&extra),
            paths_str::<R>(&ref_paths),
        );
    }
    assert_eq!(
        movegen::count_paths(p),
        ref_paths.len(),
        "movegen::count_paths != number of reference paths {}, {}",
        paths_str::<R>(&ref_paths),
        at()
    );
    let fast_paths = sorted_paths(&movegen::capture_paths(p));
    let ref_capture_paths: Vec<(Move, Vec<Square>)> = if ref_capture {
        ref_paths.clone()
    } else {
        Vec::new()
    };
    if fast_paths != ref_capture_paths {
        let (missing, extra) = difference(&ref_capture_paths, &fast_paths);
        panic!(
            "movegen::capture_paths differs from the reference, {}\nexpected: {}\n\
             actual:   {}\nmissing:  {}\nextra:    {}",
            at(),
            paths_str::<R>(&ref_capture_paths),
            paths_str::<R>(&fast_paths),
            paths_str::<R>(&missing),
            paths_str::<R>(&extra),
        );
    }

    // Notation round trips (N2): the canonical text of each move, and every path.
    for m in &fast {
        let text = notation::move_text(p, m);
        assert_eq!(
            notation::parse_move(p, &text),
            Ok(*m),
            "move {} written '{text}' does not read back, {}",
            move_str::<R>(m),
            at()
        );
    }
    for (m, path) in &ref_paths {
        let text = notation::path_text::<R>(path, m.is_capture());
        assert_eq!(
            notation::parse_move(p, &text),
            Ok(*m),
            "path '{text}' does not read back as {}, {}",
            move_str::<R>(m),
            at()
        );
    }

    // FEN round trip (N1).
    let back = fen::parse_fen::<R>(&fen)
        .unwrap_or_else(|e| panic!("to_fen output does not parse: {e}, {}", at()));
    for c in Color::ALL {
        assert_eq!(
            back.pieces(c),
            p.pieces(c),
            "FEN round trip loses {c}'s pieces, {}",
            at()
        );
    }
    assert_eq!(
        back.all_kings(),
        p.all_kings(),
        "FEN round trip loses kings, {}",
        at()
    );
    assert_eq!(
        back.side(),
        p.side(),
        "FEN round trip loses the side, {}",
        at()
    );

    ref_paths
}

/// Checks `next = p.play(mv)` against the reference board and the draw counters.
fn check_play<R: Rules>(p: &Position<R>, mv: &Move, next: &Position<R>) {
    let before = Board::from_position(p);
    let expected = before.play(mv);
    let (pieces, kings) = expected.sets();
    let at = || {
        format!(
            "{} position {} move {} gives {}, expected {}",
            R::NAME,
            fen::to_fen(p),
            move_str::<R>(mv),
            fen::to_fen(next),
            fen::to_fen(&Position::<R>::new(pieces, kings, expected.side).unwrap()),
        )
    };
    assert_eq!(next.pieces(Color::White), pieces[0], "{}", at());
    assert_eq!(next.pieces(Color::Black), pieces[1], "{}", at());
    assert_eq!(next.all_kings(), kings, "{}", at());
    assert_eq!(next.side(), expected.side, "{}", at());

    // Draw counters: a capture resets both; a man move resets the reversible count.
    let man_move = !p.kings(p.side()).contains(mv.from);
    let since_capture = if mv.is_capture() {
        0
    } else {
        p.plies_since_capture() + 1
    };
    let reversible = if mv.is_capture() || man_move {
        0
    } else {
        p.reversible_plies() + 1
    };
    assert_eq!(
        next.plies_since_capture(),
        since_capture,
        "plies_since_capture, {}",
        at()
    );
    assert_eq!(
        next.reversible_plies(),
        reversible,
        "reversible_plies, {}",
        at()
    );
}

// ---------------------------------------------------------------------------------------
// Playouts
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    /// Every legal move equally likely.
    Uniform,
    /// Prefers promotions, sacrifices (moves after which the opponent must capture) and
    /// man moves, so games reach captures and kings quickly.
    Lively,
}

fn choose<R: Rules>(p: &Position<R>, moves: &[Move], policy: Policy, rng: &mut StdRng) -> Move {
    let any = |v: &[Move], rng: &mut StdRng| *v.choose(rng).expect("non-empty");
    if policy == Policy::Lively {
        let us = p.side();
        let far = if us == Color::White { 7 } else { 0 };
        let is_man = |m: &Move| !p.kings(us).contains(m.from);
        let promotions: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| is_man(m) && m.to.rank() == far)
            .collect();
        if !promotions.is_empty() && rng.gen_bool(0.9) {
            return any(&promotions, rng);
        }
        if rng.gen_bool(0.4) {
            let sacrifices: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| !Board::from_position(&p.play(m)).capture_paths().is_empty())
                .collect();
            if !sacrifices.is_empty() {
                return any(&sacrifices, rng);
            }
        }
        if rng.gen_bool(0.5) {
            let man_moves: Vec<Move> = moves.iter().copied().filter(is_man).collect();
            if !man_moves.is_empty() {
                return any(&man_moves, rng);
            }
        }
    }
    any(moves, rng)
}

/// What the playouts covered, to show the checks met the rules that matter.
#[derive(Default, Debug)]
struct Coverage {
    /// Games (or random start positions) played.
    games: usize,
    /// Moves played (each followed by a full check of the new position).
    plies: usize,
    /// Positions checked, start positions included.
    positions: usize,
    /// Positions with a king on the board.
    with_kings: usize,
    /// Positions where a capture was compulsory.
    capture_positions: usize,
    /// Capture positions where the paths outnumber the distinct moves (G1).
    duplicate_paths: usize,
    /// Capture positions where some path takes two pieces or more (G3).
    multi_captures: usize,
    /// The most pieces taken by one legal capture.
    longest_capture: u32,
    /// Legal capture paths of a man that land on its far rank and go on capturing
    /// (G7: still a man; never in scandinavian, boyer-parton, english: S6, E6).
    man_paths_through_far_rank: usize,
    /// Legal capture paths of a man that end on its far rank (crowned, G7).
    man_paths_crowning: usize,
    /// Capture paths ending on their own origin (G4).
    circular: usize,
    /// Moves played that crowned a man (G7).
    promotions: usize,
}

impl Coverage {
    fn position<R: Rules>(&mut self, p: &Position<R>, paths: &[(Move, Vec<Square>)]) {
        self.positions += 1;
        self.with_kings += p.all_kings().any() as usize;
        let Some((first, _)) = paths.first() else {
            return;
        };
        if !first.is_capture() {
            return;
        }
        self.capture_positions += 1;
        let mut moves: Vec<Move> = paths.iter().map(|(m, _)| *m).collect();
        moves.dedup();
        self.duplicate_paths += (moves.len() < paths.len()) as usize;
        let longest = moves.iter().map(|m| m.captured.count()).max().unwrap_or(0);
        self.multi_captures += (longest >= 2) as usize;
        self.longest_capture = self.longest_capture.max(longest);
        let far = if p.side() == Color::White { 7 } else { 0 };
        for (m, path) in paths {
            let man = !p.kings(p.side()).contains(m.from);
            let last = path.len() - 1;
            if man && path[1..last].iter().any(|s| s.rank() == far) {
                self.man_paths_through_far_rank += 1;
            }
            if man && path[last].rank() == far {
                self.man_paths_crowning += 1;
            }
            self.circular += (m.from == m.to) as usize;
        }
    }

    fn add(&mut self, o: &Coverage) {
        self.games += o.games;
        self.plies += o.plies;
        self.positions += o.positions;
        self.with_kings += o.with_kings;
        self.capture_positions += o.capture_positions;
        self.duplicate_paths += o.duplicate_paths;
        self.multi_captures += o.multi_captures;
        self.longest_capture = self.longest_capture.max(o.longest_capture);
        self.man_paths_through_far_rank += o.man_paths_through_far_rank;
        self.man_paths_crowning += o.man_paths_crowning;
        self.circular += o.circular;
        self.promotions += o.promotions;
    }
}

/// Plays up to `max_plies` moves from `start`, checking every position and move.
fn playout<R: Rules>(
    start: Position<R>,
    max_plies: usize,
    policy: Policy,
    rng: &mut StdRng,
    cov: &mut Coverage,
) {
    cov.games += 1;
    let mut p = start;
    let mut paths = check_position(&p);
    cov.position(&p, &paths);
    let mut plies = 0;
    while plies < max_plies && !paths.is_empty() {
        let mut moves: Vec<Move> = paths.iter().map(|(m, _)| *m).collect();
        moves.dedup();
        let mv = choose(&p, &moves, policy, rng);
        let next = p.play(&mv);
        check_play(&p, &mv, &next);
        cov.promotions +=
            (!p.kings(p.side()).contains(mv.from) && next.kings(p.side()).contains(mv.to)) as usize;
        p = next;
        paths = check_position(&p);
        cov.position(&p, &paths);
        plies += 1;
    }
    cov.plies += plies;
}

/// A random legal position: a few men and kings of each side on playable squares, no man
/// on its promotion rank, either side to move.
fn random_position<R: Rules>(rng: &mut StdRng, max: usize) -> Position<R> {
    let spec = Spec::of::<R>();
    let mut squares: Vec<Square> = (0..64u8)
        .map(Square::new)
        .filter(|s| spec.playable(s.file() as i8, s.rank() as i8))
        .collect();
    squares.shuffle(rng);
    let counts = [rng.gen_range(1..=max), rng.gen_range(1..=max)];
    let king_chance = rng.gen_range(0.0..0.8);
    let mut pieces = [0u64; 2];
    let mut kings = 0u64;
    let mut next = squares.into_iter();
    for c in Color::ALL {
        let far = if c == Color::White { 7 } else { 0 };
        for _ in 0..counts[c.index()] {
            let sq = next.next().expect("enough squares");
            pieces[c.index()] |= 1 << sq.index();
            if sq.rank() == far || rng.gen_bool(king_chance) {
                kings |= 1 << sq.index();
            }
        }
    }
    let side = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    Position::new(
        [Bitboard(pieces[0]), Bitboard(pieces[1])],
        Bitboard(kings),
        side,
    )
    .expect("a valid random position")
}

/// Random playouts of the rule set `R` with every position and move checked.
fn run_variant<R: Rules>(seed: u64) {
    let t = Instant::now();
    // Unoptimised builds run a fifth of the games (`cargo test --release` runs them all).
    let games = |n: usize| if cfg!(debug_assertions) { n / 5 } else { n };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut from_start = Coverage::default();
    let mut lively = Coverage::default();
    let mut sparse = Coverage::default();
    let mut dense = Coverage::default();
    for _ in 0..games(60) {
        playout(
            Position::<R>::start(),
            200,
            Policy::Uniform,
            &mut rng,
            &mut from_start,
        );
    }
    for _ in 0..games(150) {
        playout(
            Position::<R>::start(),
            250,
            Policy::Lively,
            &mut rng,
            &mut lively,
        );
    }
    let few = if Spec::of::<R>().dark_only { 8 } else { 12 };
    for i in 0..games(6000) {
        let policy = [Policy::Uniform, Policy::Lively][i % 2];
        let start = random_position::<R>(&mut rng, few);
        playout(start, 40, policy, &mut rng, &mut sparse);
    }
    for i in 0..games(1500) {
        let policy = [Policy::Uniform, Policy::Lively][i % 2];
        let start = random_position::<R>(&mut rng, 2 * few);
        playout(start, 40, policy, &mut rng, &mut dense);
    }
    let mut total = Coverage::default();
    for (what, c) in [
        ("uniform from start", &from_start),
        ("lively from start", &lively),
        ("random sparse starts", &sparse),
        ("random crowded starts", &dense),
    ] {
        eprintln!("{}: {what}: {c:?}", R::NAME);
        total.add(c);
    }
    eprintln!("{}: total: {total:?} in {:.2?}", R::NAME, t.elapsed());
    // The checks must have met what makes each variant hard.
    assert!(total.plies >= 5_000, "{}: too few plies", R::NAME);
    assert!(
        total.with_kings > 1_000 && total.promotions > 100,
        "{}: few kings",
        R::NAME
    );
    assert!(
        total.multi_captures > 100,
        "{}: few multiple captures",
        R::NAME
    );
}

#[test]
fn playouts_dameo() {
    run_variant::<Dameo>(0xDA3E0);
}

#[test]
fn playouts_croda() {
    run_variant::<Croda>(0xC30DA);
}

#[test]
fn playouts_scandinavian() {
    run_variant::<Scandinavian>(0x5CA4D);
}

#[test]
fn playouts_boyer_parton() {
    run_variant::<BoyerParton>(0xB0E4);
}

#[test]
fn playouts_english() {
    run_variant::<English>(0xE4611);
}

// ---------------------------------------------------------------------------------------
// The reference against docs/rules.md: the constants, table P and the rule examples
// ---------------------------------------------------------------------------------------

/// The engine's `Rules` constants say what `docs/rules.md` says (as transcribed in `Spec`).
#[test]
fn rules_constants_match_rules_md() {
    let mut diffs = Vec::new();
    diffs.extend(Spec::of::<Dameo>().agrees_with::<Dameo>());
    diffs.extend(Spec::of::<Croda>().agrees_with::<Croda>());
    diffs.extend(Spec::of::<Scandinavian>().agrees_with::<Scandinavian>());
    diffs.extend(Spec::of::<BoyerParton>().agrees_with::<BoyerParton>());
    diffs.extend(Spec::of::<English>().agrees_with::<English>());
    assert!(diffs.is_empty(), "{diffs:#?}");
}

/// Reference perft from the start position against `docs/rules.md` table P, and the engine's
/// perft against the same figures.
fn table_p<R: Rules>(expected: &[u64]) {
    let board = Board::start::<R>();
    assert_eq!(
        board,
        Board::from_position(&Position::<R>::start()),
        "{} start",
        R::NAME
    );
    for (i, &n) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            reference_perft(&board, depth),
            n,
            "{} reference perft {depth}",
            R::NAME
        );
        assert_eq!(
            perft::perft(&Position::<R>::start(), depth),
            n,
            "{} perft {depth}",
            R::NAME
        );
    }
}

#[test]
fn reference_perft_dameo() {
    table_p::<Dameo>(&[52, 2_704, 135_930]);
}

#[test]
fn reference_perft_croda() {
    table_p::<Croda>(&[22, 484, 10_494, 194_440]);
}

#[test]
fn reference_perft_scandinavian() {
    table_p::<Scandinavian>(&[7, 49, 302, 1_469, 7_361, 36_768]);
}

#[test]
fn reference_perft_boyer_parton() {
    table_p::<BoyerParton>(&[7, 19, 59, 180, 631, 2_386]);
}

#[test]
fn reference_perft_english() {
    table_p::<English>(&[7, 49, 302, 1_469, 7_361, 36_768]);
}

/// The texts of the reference's legal paths in `fen`, after checking the position.
fn legal_texts<R: Rules>(fen: &str) -> Vec<String> {
    let p = fen::parse_fen::<R>(fen).expect("a valid FEN");
    let mut v: Vec<String> = check_position(&p)
        .iter()
        .map(|(m, path)| notation::path_text::<R>(path, m.is_capture()))
        .collect();
    v.sort();
    v
}

/// Plays `text` in `p` (which must be legal), checking the move.
fn play_text<R: Rules>(p: &Position<R>, text: &str) -> Position<R> {
    let mv = notation::parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let next = p.play(&mv);
    check_play(p, &mv, &next);
    check_position(&next);
    next
}

/// The rule examples at the end of `docs/rules.md`, on the reference and the engine.
#[test]
fn rules_md_examples() {
    // D4, G3
    assert_eq!(legal_texts::<Dameo>("W:We2:Be3,f4,g5,a8"), ["e2xe4xg4xg6"]);
    // G7: on a8 the man goes on capturing as a man and does not promote. (docs/rules.md writes
    // the black piece on h1 as a man, which N1 forbids on Black's promotion rank; a king
    // there changes nothing for White's capture.)
    assert_eq!(
        legal_texts::<Dameo>("W:Wa6:Ba7,b8,d8,e7,Kg8,Kh1"),
        ["a6xa8xc8xe8xe6"]
    );
    let p = fen::parse_fen::<Dameo>("W:Wa6:Ba7,b8,d8,e7,Kg8,Kh1").unwrap();
    let p = play_text(&p, "a6xa8xc8xe8xe6");
    assert!(p
        .men(Color::White)
        .contains(Square::from_coords(4, 5).unwrap()));
    // G7: ending on the far rank, it promotes.
    assert_eq!(
        legal_texts::<Dameo>("W:Wa6:Ba7,b8,d8,Kg8,Kh1"),
        ["a6xa8xc8xe8"]
    );
    let p = fen::parse_fen::<Dameo>("W:Wa6:Ba7,b8,d8,Kg8,Kh1").unwrap();
    let p = play_text(&p, "a6xa8xc8xe8");
    assert!(p
        .kings(Color::White)
        .contains(Square::from_coords(4, 7).unwrap()));
    // S3
    assert_eq!(
        legal_texts::<Scandinavian>("W:Wa1:Bb2,b4,b6,h8"),
        ["a1xc3xa5xc7"]
    );
    assert_eq!(
        legal_texts::<Scandinavian>("W:Wd4:Bc5,e3,e5,f6,h8"),
        ["d4xb6"]
    );
    // S4, S5, G4 and the G5 landing restriction.
    assert_eq!(
        legal_texts::<Scandinavian>("W:WKa1:Bd4,e7,b6,Kg5,h8"),
        ["a1xf6xd8xa5", "a1xf6xh4"]
    );
    // Freeling's coup turc (D2 linear moves, G4: captured pieces block).
    let p = fen::parse_fen::<Dameo>("W:Wb5,c1,d1,d2,e1,h2:BKa5,b7,c6,d5").unwrap();
    assert!(legal_texts::<Dameo>(&fen::to_fen(&p)).contains(&"c1-e3".to_string()));
    let p = play_text(&p, "c1-e3");
    assert_eq!(legal_texts::<Dameo>(&fen::to_fen(&p)), ["a5xc5"]);
    let p = play_text(&p, "a5xc5");
    assert!(legal_texts::<Dameo>(&fen::to_fen(&p)).contains(&"e1-c3".to_string()));
    let p = play_text(&p, "e1-c3");
    assert_eq!(legal_texts::<Dameo>(&fen::to_fen(&p)), ["c5xc1xh1xh3xd3"]);
    let p = play_text(&p, "c5xc1xh1xh3xd3");
    assert_eq!(legal_texts::<Dameo>(&fen::to_fen(&p)), ["d2xd4xd6xb6xb8"]);
    let p = play_text(&p, "d2xd4xd6xb6xb8");
    assert_eq!(fen::to_fen(&p), "B:WKb8:B");
}

/// The legal paths of `fen` in algebraic squares, after checking the position.
fn algebraic_paths<R: Rules>(fen: &str) -> Vec<String> {
    let p = fen::parse_fen::<R>(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut v: Vec<String> = check_position(&p)
        .iter()
        .map(|(m, path)| {
            let sep = if m.is_capture() { "x" } else { "-" };
            let names: Vec<String> = path.iter().map(|s| s.algebraic()).collect();
            names.join(sep)
        })
        .collect();
    v.sort();
    v
}

/// Corner cases of the rules, on the reference and the engine.
#[test]
fn rule_corner_cases() {
    // B1 + G5 landing restriction + S6: the man may land on c5, d6, e7 or f8 beyond b4;
    // only d6 lets the capture go on, so it must land there (f8 would crown and stop).
    assert_eq!(algebraic_paths::<BoyerParton>("W:Wa3:Bb4,c7"), ["a3xd6xb8"]);
    // E6 and S6: a man crowned by a capture stops, though as a king it could take g7.
    assert_eq!(algebraic_paths::<English>("W:Wd6:Be7,g7"), ["d6xf8"]);
    assert_eq!(algebraic_paths::<Scandinavian>("W:Wd6:Be7,g7"), ["d6xf8"]);
    // G4, G1: a short king may capture round a loop back to its origin; the two
    // directions round it are two paths of one move.
    assert_eq!(
        algebraic_paths::<English>("W:WKc3:Bd4,f4,f2,d2"),
        ["c3xe1xg3xe5xc3", "c3xe5xg3xe1xc3"]
    );
    let p = fen::parse_fen::<English>("W:WKc3:Bd4,f4,f2,d2").unwrap();
    assert_eq!((movegen::count(&p), movegen::count_paths(&p)), (1, 2));
    // G7 in croda: the man lands on a8 and goes on capturing as a man (D4/C4 sideways).
    assert_eq!(algebraic_paths::<Croda>("W:Wa6:Ba7,b8,Kh1"), ["a6xa8xc8"]);
    // D2: a line advances over own men, but an own king blocks it.
    let with_man = algebraic_paths::<Dameo>("W:Wc1,d2,e3:Ba8");
    assert!(with_man.contains(&"c1-f4".to_string()), "{with_man:?}");
    let with_king = algebraic_paths::<Dameo>("W:Wc1,d2,Ke3:Ba8");
    assert!(!with_king
        .iter()
        .any(|m| m.starts_with("c1-") && m != "c1-b2" && m != "c1-c2"));
    // D2: an enemy piece at the head of the line blocks it; D6 majority over all pieces.
    assert!(!algebraic_paths::<Dameo>("W:Wc1,d2:Be3,a8").contains(&"c1-e3".to_string()));
    assert_eq!(
        algebraic_paths::<Dameo>("W:Wa1,e4:Ba2,e5,e7,h8"),
        ["e4xe6xe8"]
    );
}
