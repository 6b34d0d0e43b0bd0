//! Opening books by drop-out expansion (`dama book build`): the tree grows from the start
//! position one batch of positions at a time, each position searched with several lines,
//! and the next positions are those whose path from the start costs least. A step of a
//! path costs its move's drop-out (how far its score lies below the best move's, with
//! the scores backed up through the positions already in the tree) plus a fixed cost a
//! ply, so the book is deepest along the best lines and broadest where several moves are
//! nearly as good. A move more than the margin below the best is not followed.
//!
//! Every position is searched with one thread, a fresh table and no history, to a fixed
//! depth, and the batches have a fixed size: the book is a function of its settings alone,
//! whatever the number of threads, and a resumed build goes on exactly where it stopped.

use crate::engine::book::{Book, BookMove};
use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::game::Game;
use crate::movegen;
use crate::moves::Move;
use crate::play::pool::{self, Flow};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{parent_score, Score};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::Mutex;

/// Positions searched together: fixed, so that the book does not depend on the threads.
pub const BATCH: usize = 8;

/// How a book is grown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// Positions the book should hold.
    pub positions: usize,
    /// Depth of each position's search.
    pub depth: u32,
    /// Lines (moves) searched in each position.
    pub lines: usize,
    /// No position deeper than this many plies from the start is searched.
    pub max_ply: usize,
    /// A move more than this many hundredths of a man below the best is not followed.
    pub margin: Score,
    /// The cost of a ply, in hundredths of a man of drop-out.
    pub ply_cost: Score,
}

/// A searched position: its best moves with their scores from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Node<R: Rules> {
    /// The position.
    pub pos: Position<R>,
    /// Its moves, best first, with the search's scores.
    pub moves: Vec<(Move, Score)>,
}

/// The positions searched so far.
#[derive(Clone, Debug)]
pub struct Tree<R: Rules> {
    root: Position<R>,
    nodes: HashMap<u64, Node<R>>,
    order: Vec<u64>,
}

impl<R: Rules> Tree<R> {
    /// A tree growing from `root`, with nothing searched yet.
    pub fn new(root: Position<R>) -> Tree<R> {
        Tree {
            root,
            nodes: HashMap::new(),
            order: Vec::new(),
        }
    }

    /// Adds a searched position (a position already there is kept as it was).
    pub fn insert(&mut self, node: Node<R>) {
        let h = node.pos.hash();
        if let std::collections::hash_map::Entry::Vacant(e) = self.nodes.entry(h) {
            e.insert(node);
            self.order.push(h);
        }
    }

    /// Positions searched.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing is searched yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The searched positions in the order they were added.
    pub fn nodes(&self) -> impl Iterator<Item = &Node<R>> {
        self.order.iter().map(|h| &self.nodes[h])
    }

    fn node(&self, pos: &Position<R>) -> Option<&Node<R>> {
        self.nodes
            .get(&pos.hash())
            .filter(|n| n.pos.same_board(pos))
    }

    /// Every position's value backed up through the tree: the best of its moves, a move
    /// into a searched position scoring that position's value turned over (a forced result
    /// one ply further away). A move that
    /// comes back to a position on the path scores as its search said.
    pub fn values(&self, max_ply: usize) -> HashMap<u64, Score> {
        let mut values = HashMap::new();
        let mut path = HashSet::new();
        self.value(&self.root, 0, max_ply, &mut values, &mut path);
        values
    }

    fn value(
        &self,
        pos: &Position<R>,
        ply: usize,
        max_ply: usize,
        values: &mut HashMap<u64, Score>,
        path: &mut HashSet<u64>,
    ) -> Option<Score> {
        let node = self.node(pos)?;
        if let Some(&v) = values.get(&pos.hash()) {
            return Some(v);
        }
        path.insert(pos.hash());
        let mut best = None;
        for &(mv, raw) in &node.moves {
            let child = pos.play(&mv);
            let s = if ply < max_ply && !path.contains(&child.hash()) {
                self.value(&child, ply + 1, max_ply, values, path)
                    .map_or(raw, parent_score)
            } else {
                raw
            };
            best = Some(best.map_or(s, |b: Score| b.max(s)));
        }
        path.remove(&pos.hash());
        let v = best?;
        values.insert(pos.hash(), v);
        Some(v)
    }

    /// The moves of a searched position with their backed-up scores, best first.
    fn scored(&self, node: &Node<R>, values: &HashMap<u64, Score>) -> Vec<(Move, Score)> {
        let mut moves: Vec<(Move, Score)> = node
            .moves
            .iter()
            .map(|&(mv, raw)| {
                let child = node.pos.play(&mv);
                let s = self
                    .node(&child)
                    .and_then(|_| values.get(&child.hash()))
                    .map_or(raw, |&v| parent_score(v));
                (mv, s)
            })
            .collect();
        moves.sort_by_key(|&(_, s)| Reverse(s));
        moves
    }

    /// The next positions to search, cheapest path first, at most `count`: the start
    /// position when nothing is searched yet.
    pub fn frontier(&self, e: &Expansion, count: usize) -> Vec<Position<R>> {
        let values = self.values(e.max_ply);
        let mut cost: HashMap<u64, Score> = HashMap::new();
        let mut heap = BinaryHeap::new();
        let mut at: HashMap<u64, (Position<R>, usize)> = HashMap::new();
        cost.insert(self.root.hash(), 0);
        at.insert(self.root.hash(), (self.root, 0));
        heap.push(Reverse((0, self.root.hash())));
        let mut out = Vec::new();
        while let Some(Reverse((c, h))) = heap.pop() {
            if cost.get(&h).is_some_and(|&best| best < c) {
                continue;
            }
            let (pos, ply) = at[&h];
            let Some(node) = self.node(&pos) else {
                out.push(pos);
                if out.len() == count {
                    break;
                }
                continue;
            };
            if ply >= e.max_ply {
                continue;
            }
            let moves = self.scored(node, &values);
            let Some(&(_, best)) = moves.first() else {
                continue;
            };
            for (mv, s) in moves {
                let drop = best - s;
                if drop > e.margin {
                    continue;
                }
                let child = pos.play(&mv);
                if !movegen::has_moves(&child) {
                    continue;
                }
                let c2 = c + drop + e.ply_cost;
                if cost.get(&child.hash()).is_none_or(|&old| c2 < old) {
                    cost.insert(child.hash(), c2);
                    at.insert(child.hash(), (child, ply + 1));
                    heap.push(Reverse((c2, child.hash())));
                }
            }
        }
        out
    }

    /// The book of the tree: every searched position with its moves, their backed-up
    /// scores, and the count of searched positions under each.
    pub fn book(&self, e: &Expansion, command: String) -> Book<R> {
        let values = self.values(e.max_ply);
        let mut book = Book::new(command);
        for node in self.nodes() {
            let moves = self
                .scored(node, &values)
                .into_iter()
                .map(|(mv, score)| BookMove {
                    mv,
                    score,
                    count: self.under(&node.pos.play(&mv), e.max_ply) as u32,
                })
                .collect();
            book.insert(node.pos, moves);
        }
        book
    }

    /// The searched positions reachable from `pos` (itself included).
    fn under(&self, pos: &Position<R>, max_ply: usize) -> usize {
        let mut seen = HashSet::new();
        let mut stack = vec![(*pos, 0)];
        while let Some((p, ply)) = stack.pop() {
            let Some(node) = self.node(&p) else { continue };
            if !seen.insert(p.hash()) || ply > max_ply {
                continue;
            }
            for &(mv, _) in &node.moves {
                stack.push((p.play(&mv), ply + 1));
            }
        }
        seen.len()
    }
}

/// Searches `pos` with `e.lines` lines to `e.depth`, one thread, a fresh table and no
/// history.
pub fn search_node<R: Rules>(engine: &mut Engine<R>, pos: &Position<R>, e: &Expansion) -> Node<R> {
    engine.new_game();
    engine.set_game(Game::new(*pos));
    let limits = Limits {
        depth: Some(e.depth),
        ..Default::default()
    };
    let r = engine.search(&limits, e.lines, &|_| {});
    let moves = r
        .lines
        .iter()
        .filter_map(|l| l.pv.first().map(|&mv| (mv, l.score)))
        .collect();
    Node { pos: *pos, moves }
}

/// Grows `tree` on `threads` workers until it holds `e.positions` positions, no position
/// within the margin is left, or `stop` returns true (checked after each batch). Each
/// batch's positions are handed to `write` in order; `progress` sees the tree's size.
pub fn grow<R: Rules, W: FnMut(&[Node<R>]) -> Result<(), String>>(
    tree: &mut Tree<R>,
    e: &Expansion,
    threads: usize,
    mut write: W,
    progress: &dyn Fn(usize),
    stop: &dyn Fn() -> bool,
) -> Result<(), String> {
    while tree.len() < e.positions && !stop() {
        let batch = tree.frontier(e, BATCH.min(e.positions - tree.len()));
        if batch.is_empty() {
            break;
        }
        let found: Mutex<Vec<Option<Node<R>>>> = Mutex::new(vec![None; batch.len()]);
        pool::run(
            threads,
            batch.len(),
            || Engine::<R>::try_new(16, 1).ok(),
            |engine, job| {
                let node = search_node(engine, &batch[job], e);
                if let Ok(mut f) = found.lock() {
                    f[job] = Some(node);
                }
                Flow::Next
            },
        );
        let nodes: Vec<Node<R>> = found
            .into_inner()
            .map_err(|_| "a search thread failed".to_string())?
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or("a search thread failed")?;
        write(&nodes)?;
        for n in nodes {
            tree.insert(n);
        }
        progress(tree.len());
    }
    Ok(())
}
