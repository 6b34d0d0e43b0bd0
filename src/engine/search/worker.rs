//! One search thread: iterative deepening over a principal-variation alpha-beta search
//! and a capture-resolving quiescence search.

use super::eval_cache::EvalCache;
use super::ordering::{pick, Ordering};
use super::settings;
use super::{egdb_score, Info, Shared, MAX_PLY};
use crate::egdb::Tables;
use crate::engine::time::{Limits, Stability, TimeManager};
use crate::engine::tt::{score_from_tt, score_to_tt, Bound, Entry, MoveHint, TranspositionTable};
use crate::eval::classic::evaluate;
use crate::eval::network::{Accumulator, Network};
use crate::eval::Evaluation;
use crate::movegen;
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Score, INFINITE, MATE, MATE_BOUND};
use std::sync::atomic::Ordering as AtomicOrdering;

/// Nodes between two looks at the clock, the stop flag and the node limit.
const CHECK_EVERY: u64 = 1024;

/// A search thread's state.
pub struct Worker<'a, R: Rules> {
    id: usize,
    shared: &'a Shared,
    tt: &'a TranspositionTable,
    evaluation: &'a Evaluation,
    /// The network, when the evaluation is one.
    net: Option<&'a Network>,
    /// The network's first-layer sums of the position at each ply.
    accs: Vec<Accumulator>,
    limits: &'a Limits,
    time: TimeManager,
    /// Nodes not yet added to `shared.nodes`.
    pending: u64,
    seldepth: usize,
    stopped: bool,
    /// False until the first iteration is complete.
    can_stop: bool,
    /// Hashes of the positions from the game's last irreversible move to the current
    /// node (repetition detection, G9).
    hashes: Vec<u64>,
    ordering: Ordering,
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Move-ordering keys, one row per ply (kept here so that no node pays for
    /// initialising them).
    keys: Vec<[i32; MAX_MOVES]>,
    /// Root moves excluded from this search (multi-PV lines already found).
    excluded: Vec<Move>,
    root_pos: Position<R>,
    /// The endgame databases, when there are any.
    egdb: Option<&'a Tables<R>>,
    /// Positions whose value the databases gave (not yet added to `shared`).
    egdb_hits: u64,
    /// When the databases hold the root: the moves that keep its value (every winning
    /// move of a won root, every drawing move of a drawn one), the only root moves
    /// searched (single-line searches only).
    root_allowed: Option<Vec<Move>>,
    /// The databases hold the root, so they hold the whole tree: they score its leaves
    /// (the quiet ends of the quiescence search) instead of cutting the tree at its first
    /// database position, so that the search still sees the ends of the game it can
    /// reach and goes for them.
    egdb_leaves: bool,
    /// Static evaluations of the network by position hash.
    eval_cache: EvalCache,
}

impl<'a, R: Rules> Worker<'a, R> {
    /// A worker searching the last position of `history` (the game so far).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        shared: &'a Shared,
        tt: &'a TranspositionTable,
        evaluation: &'a Evaluation,
        limits: &'a Limits,
        time: TimeManager,
        history: &[Position<R>],
        egdb: Option<&'a Tables<R>>,
    ) -> Worker<'a, R> {
        let root_pos = *history.last().expect("a position to search");
        let window = root_pos.reversible_plies() as usize;
        let first = history.len().saturating_sub(window + 1);
        Worker {
            id,
            shared,
            tt,
            evaluation,
            net: match evaluation {
                Evaluation::Net(n) => Some(n),
                Evaluation::Classic(_) => None,
            },
            accs: match evaluation {
                Evaluation::Net(n) => {
                    let mut v = vec![Accumulator::default(); MAX_PLY + 1];
                    v[0] = n.refresh(&root_pos);
                    v
                }
                Evaluation::Classic(_) => Vec::new(),
            },
            limits,
            time,
            pending: 0,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            hashes: history[first..].iter().map(|p| p.hash()).collect(),
            ordering: Ordering::default(),
            pv: Box::new(
                [[Move::quiet(crate::Square::new(0), crate::Square::new(0)); MAX_PLY]; MAX_PLY],
            ),
            pv_len: [0; MAX_PLY],
            keys: vec![[0; MAX_MOVES]; MAX_PLY],
            excluded: Vec::new(),
            root_pos,
            egdb: egdb.filter(|t| !t.is_empty()),
            egdb_hits: 0,
            root_allowed: None,
            egdb_leaves: false,
            eval_cache: EvalCache::default(),
        }
    }

    /// Iterative deepening. Calls `report` (main thread only) after every completed
    /// iteration and line; returns the last completed lines.
    pub fn run(&mut self, multipv: usize, report: &(dyn Fn(&Info) + Sync)) -> Vec<Info> {
        let root = self.root_pos;
        let root_moves = movegen::legal_moves(&root);
        if root_moves.is_empty() {
            return Vec::new();
        }
        let multipv = multipv.clamp(1, root_moves.len());
        let root_value = self.egdb.and_then(|t| {
            (root.occupied().count() <= t.probe_pieces())
                .then(|| t.lookup(&root).ok().flatten())
                .flatten()
        });
        // A root the databases hold keeps its value: when it is won only the winning
        // moves are searched, when drawn only the drawing ones. Among those the search
        // chooses by the database scores deeper in the tree (fewer pieces, then the
        // quicker capture), so that a won ending is always brought home.
        self.egdb_leaves = root_value.is_some();
        if let (Some(t), Some(_), 1) = (self.egdb, root_value, multipv) {
            if let Ok(values) = t.move_values(&root) {
                if values.iter().all(|(_, v)| v.is_some()) {
                    let best = crate::egdb::Value::best(values.iter().filter_map(|(_, v)| *v));
                    let class = |v: crate::egdb::Value| std::mem::discriminant(&v);
                    self.root_allowed = Some(
                        values
                            .iter()
                            .filter(|(_, v)| v.is_some_and(|v| class(v) == class(best)))
                            .map(|(m, _)| *m)
                            .collect(),
                    );
                }
            }
        }
        let root_choices = self
            .root_allowed
            .as_ref()
            .map_or(root_moves.len(), Vec::len);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let mut completed: Vec<Info> = Vec::new();
        let mut prev_score = 0;
        let mut stability = Stability::default();
        for depth in 1..=max_depth {
            // Helpers skip some depths so that the threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth + self.id as u32).is_multiple_of(3) {
                continue;
            }
            self.seldepth = 0;
            let mut lines: Vec<Info> = Vec::new();
            self.excluded.clear();
            for line in 0..multipv {
                let score = if line == 0 {
                    self.aspiration(depth as i32, prev_score)
                } else {
                    self.search(&root, depth as i32, -INFINITE, INFINITE, 0, true, 0)
                };
                if self.stopped {
                    break;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                let Some(first) = pv.first().copied() else {
                    break;
                };
                if line == 0 {
                    prev_score = score;
                }
                self.excluded.push(first);
                lines.push(Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    score,
                    nodes: 0,
                    time: self.time.elapsed(),
                    pv,
                    multipv: line + 1,
                    hashfull: 0,
                    egdb: root_value,
                    egdb_hits: 0,
                });
            }
            if self.stopped && lines.len() < multipv {
                // An unfinished iteration: keep the lines it finished only if it
                // finished the first one and the earlier iteration had fewer.
                if lines.is_empty() || completed.len() >= lines.len() {
                    break;
                }
            }
            // Best line first, whatever order the lines were found in.
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            for (i, l) in lines.iter_mut().enumerate() {
                l.multipv = i + 1;
            }
            self.flush();
            let nodes = self.shared.nodes.load(AtomicOrdering::Relaxed);
            let hits = self.shared.egdb_hits.load(AtomicOrdering::Relaxed);
            let hashfull = self.tt.hashfull();
            for l in lines.iter_mut() {
                l.nodes = nodes;
                l.egdb_hits = hits;
                l.hashfull = hashfull;
                l.time = self.time.elapsed();
            }
            // Lines beyond those finished keep their previous iteration.
            if lines.len() < completed.len() {
                lines.extend(completed.drain(lines.len()..));
            }
            completed = lines;
            self.can_stop = true;
            if self.id == 0 {
                for l in &completed {
                    report(l);
                }
            }
            if self.stopped {
                break;
            }
            // A node budget spent by the iterations so far: the next one would only
            // pass it, and an unfinished iteration is not kept, so do not start it.
            if self.limits.nodes.is_some_and(|n| nodes >= n) {
                self.shared.stop.store(true, AtomicOrdering::Relaxed);
                break;
            }
            if self.id == 0 && self.time.is_timed() {
                // One legal move: no need to think. Otherwise stop when the next
                // iteration would likely not finish in the time planned, scaled by
                // how the best move and its score have moved.
                if let Some(best) = completed[0].pv.first() {
                    stability.update(depth, *best, completed[0].score);
                }
                if self.time.stop_iterating(&stability, root_choices) {
                    break;
                }
            }
            if let Some(p) = super::win_in(completed[0].score) {
                // A forced result well inside the horizon will not change.
                if p.unsigned_abs() + 2 < depth
                    && !self.limits.infinite
                    && self.limits.depth.is_none()
                {
                    break;
                }
            }
        }
        completed
    }

    fn aspiration(&mut self, depth: i32, prev: Score) -> Score {
        let root = self.root_pos;
        if depth < 4 {
            return self.search(&root, depth, -INFINITE, INFINITE, 0, true, 0);
        }
        let mut delta = 30;
        let mut alpha = (prev - delta).max(-INFINITE);
        let mut beta = (prev + delta).min(INFINITE);
        loop {
            let score = self.search(&root, depth, alpha, beta, 0, true, 0);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 500 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Adds the pending nodes to the shared count.
    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending, AtomicOrdering::Relaxed);
        self.pending = 0;
        if self.egdb_hits > 0 {
            self.shared
                .egdb_hits
                .fetch_add(self.egdb_hits, AtomicOrdering::Relaxed);
            self.egdb_hits = 0;
        }
    }

    /// Counts a node; every `CHECK_EVERY` nodes looks at the stop flag, the clock and
    /// the node limit. The first iteration always finishes, so that there is a move.
    #[inline]
    fn count_node(&mut self) {
        self.pending += 1;
        if self.pending >= CHECK_EVERY {
            let total = self
                .shared
                .nodes
                .fetch_add(self.pending, AtomicOrdering::Relaxed)
                + self.pending;
            self.pending = 0;
            if self.can_stop
                && (self.shared.stopped()
                    || self.time.hard_expired()
                    || self.limits.nodes.is_some_and(|n| total >= n))
            {
                self.shared.stop.store(true, AtomicOrdering::Relaxed);
                self.stopped = true;
            }
        }
    }

    /// G9 inside the tree: a repetition of any earlier position since the last
    /// irreversible move (same side to move) is scored as a draw; E7 likewise.
    fn is_draw(&self, pos: &Position<R>) -> bool {
        if let Some(limit) = R::NO_CAPTURE_DRAW_PLIES {
            if pos.plies_since_capture() >= limit {
                return true;
            }
        }
        let window = pos.reversible_plies() as usize;
        let n = self.hashes.len();
        // hashes[n - 1] is the current position.
        let mut back = 2;
        while back <= window && back < n {
            if self.hashes[n - 1 - back] == pos.hash() {
                return true;
            }
            back += 2;
        }
        false
    }

    /// The principal-variation search of `pos` at `ply`, `depth` plies deep; `trunc` is
    /// the plies truncation took from the line above (settings::truncation_margin),
    /// given back where the line returns within the margin.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position<R>,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
        mut trunc: i32,
    ) -> Score {
        self.pv_len[ply] = 0;
        if ply > 0 {
            if self.is_draw(pos) {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
            // The databases know this position: no search below it (unless they know
            // the root too, and score the leaves).
            if let Some(v) = self
                .egdb
                .filter(|_| !self.egdb_leaves)
                .and_then(|t| t.probe(pos))
            {
                self.egdb_hits += 1;
                return egdb_score(v, pos.occupied().count());
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.hash();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            if !pv_node && ply > 0 && e.depth >= depth {
                let s = score_from_tt(e.score, ply as i32);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // The verified evaluation cut (settings::eval_cut_margin): a quiet node off the
        // principal variation that stands far above beta is tried shallower against a
        // raised beta; if it holds there, it fails high here.
        let margin = const { settings::eval_cut_margin_of::<R>() };
        let trunc_margin = const { settings::truncation_margin_of::<R>() };
        let quiet_off_pv = (margin > 0 || trunc_margin > 0)
            && !pv_node
            && ply > 0
            && beta.abs() < MATE_BOUND
            && !movegen::has_capture(pos);
        let mut eval: Option<Score> = None;
        if margin > 0 && quiet_off_pv && ply >= 3 && depth >= 3 {
            let raised = beta + margin;
            let refuted = entry.is_some_and(|e| {
                e.depth >= depth - settings::EVAL_CUT_REDUCTION
                    && e.bound != Bound::Lower
                    && score_from_tt(e.score, ply as i32) < raised
            });
            if !refuted && *eval.get_or_insert_with(|| self.static_eval(pos, ply)) >= raised {
                let s = self.search(
                    pos,
                    depth - settings::EVAL_CUT_REDUCTION,
                    raised - 1,
                    raised,
                    ply,
                    false,
                    trunc,
                );
                if self.stopped {
                    return 0;
                }
                if s >= raised {
                    return s;
                }
            }
        }
        // Truncation (settings::truncation_margin): a quiet node far outside the window
        // is searched shallower; the plies taken along the line come back at the first
        // node that returns within the margin.
        if trunc_margin > 0 && quiet_off_pv {
            let e = match eval {
                Some(e) => e,
                None => self.static_eval(pos, ply),
            };
            let distance = (alpha - e).max(e - beta);
            if distance > trunc_margin {
                let r = 1 + (distance > const { settings::truncation_deep_of::<R>() }) as i32;
                depth -= r;
                trunc += r;
                if depth <= 0 {
                    return self.quiescence(pos, alpha, beta, ply, 0);
                }
            } else if trunc > 0 {
                depth += trunc;
                trunc = 0;
            }
        }
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        if ply == 0 && (!self.excluded.is_empty() || self.root_allowed.is_some()) {
            let keep: Vec<Move> = list
                .iter()
                .filter(|m| !self.excluded.contains(m))
                .filter(|m| self.root_allowed.as_ref().is_none_or(|a| a.contains(m)))
                .copied()
                .collect();
            list.clear();
            for m in keep {
                list.push(m);
            }
        }
        if list.is_empty() {
            // G8: no legal move loses.
            return -MATE + ply as Score;
        }
        // A forced reply costs nothing to look at one ply deeper.
        if list.len() == 1 && ply > 0 {
            depth += 1;
        }
        let mut hint = entry.and_then(|e| e.mv);
        // Internal iterative deepening (settings::iid_depth): with no table move, a
        // shallower search of this node finds one to try first.
        let iid = const { settings::iid_depth_of::<R>() };
        if iid > 0 && hint.is_none() && ply > 0 && depth >= iid && list.len() > 1 {
            self.search(
                pos,
                depth - settings::IID_REDUCTION,
                alpha,
                beta,
                ply,
                pv_node,
                trunc,
            );
            if self.stopped {
                return 0;
            }
            self.pv_len[ply] = 0;
            hint = self.tt.probe(key).and_then(|e| e.mv);
        }
        self.ordering
            .scores(&list, pos.side(), ply, hint, &mut self.keys[ply]);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        for i in 0..list.len() {
            let mv = pick(&mut list, &mut self.keys[ply], i);
            let child = pos.play(&mv);
            self.update_acc(ply, pos, &child);
            self.hashes.push(child.hash());
            let new_depth = depth - 1;
            let score = if i == 0 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node, trunc)
            } else {
                // Late-move reductions for quiet moves far down the list.
                let mut r = 0;
                if depth >= 3 && i >= 3 && !mv.is_capture() && !self.ordering.is_killer(ply, &mv) {
                    r = 1 + (i >= 8) as i32 + (depth >= 8 && i >= 16) as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    trunc,
                );
                if s > alpha && r > 0 {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, trunc);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true, trunc);
                }
                s
            };
            self.hashes.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.ordering.cutoff(pos.side(), ply, depth, &mv);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.excluded.is_empty() || ply > 0 {
            self.tt.store(
                key,
                Entry {
                    mv: best_move.as_ref().map(MoveHint::of),
                    score: score_to_tt(best, ply as i32),
                    depth,
                    bound,
                },
            );
        }
        best
    }

    /// Resolves captures: a position where the side to move can capture is never
    /// evaluated statically; every capture is searched (they are compulsory, so there is
    /// no standing pat). A quiet position is evaluated.
    fn quiescence(
        &mut self,
        pos: &Position<R>,
        alpha: Score,
        beta: Score,
        ply: usize,
        threat_plies: u32,
    ) -> Score {
        self.pv_len[ply] = 0;
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !movegen::has_capture(pos) {
            if !movegen::has_moves(pos) {
                return -MATE + ply as Score;
            }
            if self.egdb_leaves {
                if let Some(v) = self.egdb.and_then(|t| t.probe(pos)) {
                    self.egdb_hits += 1;
                    return egdb_score(v, pos.occupied().count());
                }
            }
            // A quiet position where the opponent threatens to capture is not
            // evaluated as it stands: every move is tried, so that the threat is met
            // or carried out ([`settings::quiescence_threat_plies`] times per line at most),
            // unless its evaluation lies outside [`settings::threat_window`] around alpha.
            if threat_plies < const { settings::quiescence_threat_plies_of::<R>() }
                && ply < MAX_PLY - 4
                && movegen::has_capture_for(pos, pos.side().opponent())
            {
                if let Some((below, above)) = const { settings::threat_window_of::<R>() } {
                    let e = self.static_eval(pos, ply);
                    if e <= alpha - below || e >= alpha + above {
                        return e;
                    }
                }
                return self.quiescence_moves(pos, alpha, beta, ply, threat_plies + 1);
            }
            // Draws (G9, E7) were checked by `search` before it came here; after a
            // capture nothing can repeat.
            return self.static_eval(pos, ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos, ply);
        }
        self.quiescence_moves(pos, alpha, beta, ply, threat_plies)
    }

    /// Every move of `pos` followed by the quiescence search: the captures of a position
    /// with a capture, or the quiet replies to a threat.
    fn quiescence_moves(
        &mut self,
        pos: &Position<R>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_plies: u32,
    ) -> Score {
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        self.ordering
            .scores(&list, pos.side(), ply, None, &mut self.keys[ply]);
        let mut best = -INFINITE;
        for i in 0..list.len() {
            let mv = pick(&mut list, &mut self.keys[ply], i);
            let child = pos.play(&mv);
            self.update_acc(ply, pos, &child);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, threat_plies);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The network's sums of `child` (at `ply + 1`) from those of its parent `pos`.
    #[inline(always)]
    fn update_acc(&mut self, ply: usize, pos: &Position<R>, child: &Position<R>) {
        if let Some(net) = self.net {
            let (done, next) = self.accs.split_at_mut(ply + 1);
            net.update_into(&done[ply], &mut next[0], pos, child);
        }
    }

    /// The static evaluation of `pos`, the position at `ply`.
    #[inline(always)]
    fn static_eval(&mut self, pos: &Position<R>, ply: usize) -> Score {
        match self.evaluation {
            Evaluation::Classic(w) => evaluate(pos, w),
            Evaluation::Net(n) => {
                debug_assert_eq!(self.accs[ply], n.refresh(pos));
                let net = || n.evaluate(&self.accs[ply], pos.side(), pos.occupied().count());
                let key = pos.hash();
                if let Some(e) = self.eval_cache.probe(key) {
                    debug_assert_eq!(e, net());
                    return e;
                }
                let e = net();
                self.eval_cache.store(key, e);
                e
            }
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = (child_len + 1).min(MAX_PLY);
    }
}
