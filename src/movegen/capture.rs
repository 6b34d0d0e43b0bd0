//! Capture sequences: short leaps (G6) and long leaps with the landing restriction (G5),
//! delayed removal (G4), complete sequences (G3), the majority rule applied while
//! generating (D6, C6) and duplicate paths merged (G1).

use crate::bitboard::{flip_dirs, slide, Bitboard};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};

/// Where finished capture sequences go.
pub(crate) trait Sink {
    /// Whether the sink wants the landing squares of each path ([`Sink::enter`]).
    const RECORD_PATH: bool;
    /// Takes one complete capture path ending on `mv.to`. `dedup` is false when the
    /// path cannot repeat an earlier move (G1).
    fn push<R: Rules>(&mut self, mv: Move, dedup: bool);
    /// The path goes on to `sq` (only called when `RECORD_PATH`).
    #[inline(always)]
    fn enter(&mut self, _sq: Square) {}
    /// The path steps back from its last square (only called when `RECORD_PATH`).
    #[inline(always)]
    fn leave(&mut self) {}
}

/// Keeps the move list to the largest capture when the rules ask for it (D6, C6): a
/// longer capture clears the list, a shorter one is dropped.
#[inline(always)]
fn admit<R: Rules>(list: &mut MoveList, mv: &Move) -> bool {
    if R::MAJORITY {
        if let Some(first) = list.first() {
            let best = first.captured.count();
            let n = mv.captured.count();
            if n < best {
                return false;
            }
            if n > best {
                list.clear();
            }
        }
    }
    true
}

/// One entry per distinct move (G1).
pub(crate) struct Distinct<'a>(pub &'a mut MoveList);

impl Sink for Distinct<'_> {
    const RECORD_PATH: bool = false;
    #[inline(always)]
    fn push<R: Rules>(&mut self, mv: Move, dedup: bool) {
        if admit::<R>(self.0, &mv) && !(dedup && self.0.contains(&mv)) {
            self.0.push(mv);
        }
    }
}

/// One entry per capture path: a move reached by two paths appears twice (perft
/// `--paths`, to compare with published checkers tables).
pub(crate) struct EveryPath<'a>(pub &'a mut MoveList);

impl Sink for EveryPath<'_> {
    const RECORD_PATH: bool = false;
    #[inline(always)]
    fn push<R: Rules>(&mut self, mv: Move, _: bool) {
        if admit::<R>(self.0, &mv) {
            self.0.push(mv);
        }
    }
}

/// Counts paths (and, under the majority rule, only the longest) without a list. If
/// some path could repeat an earlier move, `may_repeat` says so and the caller counts
/// distinct moves with a list instead.
#[derive(Default)]
pub(crate) struct Counter {
    pub n: usize,
    pub best: u32,
    pub may_repeat: bool,
}

impl Sink for Counter {
    const RECORD_PATH: bool = false;
    #[inline(always)]
    fn push<R: Rules>(&mut self, mv: Move, dedup: bool) {
        self.may_repeat |= dedup;
        if R::MAJORITY {
            let n = mv.captured.count();
            if n > self.best {
                self.best = n;
                self.n = 0;
            } else if n < self.best {
                return;
            }
        }
        self.n += 1;
    }
}

/// Every path with its landing squares, for notation.
#[derive(Default)]
pub(crate) struct Recorded {
    pub paths: Vec<(Move, Vec<Square>)>,
    stack: Vec<Square>,
}

impl Sink for Recorded {
    const RECORD_PATH: bool = true;
    fn push<R: Rules>(&mut self, mv: Move, _: bool) {
        if R::MAJORITY {
            if let Some((first, _)) = self.paths.first() {
                let best = first.captured.count();
                let n = mv.captured.count();
                if n < best {
                    return;
                }
                if n > best {
                    self.paths.clear();
                }
            }
        }
        let mut path = self.stack.clone();
        path.push(mv.to);
        self.paths.push((mv, path));
    }
    fn enter(&mut self, sq: Square) {
        self.stack.push(sq);
    }
    fn leave(&mut self) {
        self.stack.pop();
    }
}

/// The state of one piece's capture search.
struct Search<'a, S> {
    /// Enemy pieces, captured ones included (they stay on the board until the end, G4).
    enemy: Bitboard,
    /// Occupied squares without the capturing piece's origin (G4: the origin is empty).
    occupied: Bitboard,
    /// Empty playable squares (the origin included).
    empty: Bitboard,
    from: Square,
    sink: &'a mut S,
}

impl<S: Sink> Search<'_, S> {
    #[inline(always)]
    fn emit<R: Rules>(&mut self, to: Square, captured: Bitboard, long: bool) {
        let mv = Move {
            captured,
            from: self.from,
            to,
        };
        // Two paths with one triple need a cycle of at least four captures, or (long
        // leaps) a choice of landing square before a later capture.
        let dedup = long || captured.count() >= 4;
        self.sink.push::<R>(mv, dedup);
    }

    #[inline(always)]
    fn enter(&mut self, sq: Square) {
        if S::RECORD_PATH {
            self.sink.enter(sq);
        }
    }

    #[inline(always)]
    fn leave(&mut self) {
        if S::RECORD_PATH {
            self.sink.leave();
        }
    }

    /// Short leaps (G6) from `sq` with `captured` already taken (the man's or king's
    /// capture directions). Returns whether any jump was possible from `sq`; a landing
    /// square from which no jump follows ends the move (G3).
    fn short<R: Rules, const MAN: bool, const BLACK: bool>(
        &mut self,
        sq: Square,
        captured: Bitboard,
    ) -> bool {
        let here = Bitboard::from_square(sq);
        let dirs = capture_dirs::<R, MAN, BLACK>();
        let prey = self.enemy & !captured;
        let mut found = false;
        crate::each_dir!(dirs, |d| {
            let victim = here.shift(d) & prey;
            let land = victim.shift(d) & self.empty;
            if land.is_empty() {
                continue;
            }
            found = true;
            let to = land.lowest();
            let taken = captured | victim;
            // E6/S6: a man crowned by a capture stops there.
            let crowned = MAN && R::CROWNING_ENDS_CAPTURE && to.rank() == promotion_rank(BLACK);
            self.enter(to);
            let continued = !crowned && self.short::<R, MAN, BLACK>(to, taken);
            self.leave();
            if !continued {
                self.emit::<R>(to, taken, false);
            }
        });
        found
    }

    /// Long leaps (G5) from `sq` with `captured` already taken, (the man's or king's capture directions).
    /// Returns whether any jump was possible from `sq`. Of the landing squares beyond a
    /// captured piece, only those from which the capture continues are taken, if any
    /// does (landing restriction); otherwise each of them ends the move.
    fn long<R: Rules, const MAN: bool, const BLACK: bool>(
        &mut self,
        sq: Square,
        captured: Bitboard,
    ) -> bool {
        let dirs = capture_dirs::<R, MAN, BLACK>();
        let prey = self.enemy & !captured;
        let mut found = false;
        crate::each_dir!(dirs, |d| {
            let (_, blocker) = slide(sq, d, self.occupied);
            let Some(victim) = blocker else { continue };
            if !prey.contains(victim) {
                continue;
            }
            let (land, _) = slide(victim, d, self.occupied);
            if land.is_empty() {
                continue;
            }
            found = true;
            let taken = captured | Bitboard::from_square(victim);
            let mut continued = false;
            for to in land {
                if MAN && R::CROWNING_ENDS_CAPTURE && to.rank() == promotion_rank(BLACK) {
                    continue;
                }
                self.enter(to);
                continued |= self.long::<R, MAN, BLACK>(to, taken);
                self.leave();
            }
            if !continued {
                for to in land {
                    self.emit::<R>(to, taken, true);
                }
            }
        });
        found
    }
}

#[inline(always)]
const fn promotion_rank(black: bool) -> u8 {
    if black {
        Color::Black.promotion_rank()
    } else {
        Color::White.promotion_rank()
    }
}

/// The pieces of `movers` that have a first jump in direction set `dirs`.
#[inline(always)]
fn first_jumpers(
    movers: Bitboard,
    enemy: Bitboard,
    empty: Bitboard,
    dirs: u8,
    long: bool,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    if movers.is_empty() {
        return out;
    }
    crate::each_dir!(dirs, |d| {
        let back = d.opposite();
        // Squares from which a jump over an enemy in direction d lands on an empty one.
        let take_off = (empty.shift(back) & enemy).shift(back);
        if long {
            // A long leaper may also start further back, over empty squares.
            let take_off = take_off & (empty | movers);
            out |= take_off & movers;
            out |= (take_off & empty).fill(empty, back).shift(back) & movers;
        } else {
            out |= take_off & movers;
        }
    });
    out
}

/// True when the side to move has a capture.
#[inline(always)]
pub(crate) fn has_capture<R: Rules, const BLACK: bool>(pos: &Position<R>) -> bool {
    let (us, them) = sides(BLACK);
    let empty = pos.empty();
    let enemy = pos.pieces(them);
    first_jumpers(
        pos.men(us),
        enemy,
        empty,
        capture_dirs::<R, true, BLACK>(),
        R::MAN_LONG_LEAP,
    )
    .any()
        || first_jumpers(
            pos.kings(us),
            enemy,
            empty,
            R::KING_CAPTURES,
            R::KING_LONG_LEAP,
        )
        .any()
}

#[inline(always)]
const fn sides(black: bool) -> (Color, Color) {
    if black {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    }
}

/// Every capture of the side to move into `sink`.
#[inline(always)]
pub(crate) fn generate<R: Rules, S: Sink, const BLACK: bool>(pos: &Position<R>, sink: &mut S) {
    let (us, them) = sides(BLACK);
    let occupied = pos.occupied();
    let enemy = pos.pieces(them);
    let empty = pos.empty();
    let mut search = Search {
        enemy,
        occupied,
        empty,
        from: Square::new(0),
        sink,
    };
    let men = pos.men(us);
    let man_dirs = capture_dirs::<R, true, BLACK>();
    for from in first_jumpers(men, enemy, empty, man_dirs, R::MAN_LONG_LEAP) {
        search.start(from, occupied, empty);
        if R::MAN_LONG_LEAP {
            search.long::<R, true, BLACK>(from, Bitboard::EMPTY);
        } else {
            search.short::<R, true, BLACK>(from, Bitboard::EMPTY);
        }
        search.leave();
    }
    let kings = pos.kings(us);
    for from in first_jumpers(kings, enemy, empty, R::KING_CAPTURES, R::KING_LONG_LEAP) {
        search.start(from, occupied, empty);
        if R::KING_LONG_LEAP {
            search.long::<R, false, BLACK>(from, Bitboard::EMPTY);
        } else {
            search.short::<R, false, BLACK>(from, Bitboard::EMPTY);
        }
        search.leave();
    }
}

impl<S: Sink> Search<'_, S> {
    /// Prepares the search for the piece on `from`: its origin counts as empty (G4).
    #[inline(always)]
    fn start(&mut self, from: Square, occupied: Bitboard, empty: Bitboard) {
        let origin = Bitboard::from_square(from);
        self.from = from;
        self.occupied = occupied & !origin;
        self.empty = empty | origin;
        self.enter(from);
    }
}

/// The capture directions of a man (`MAN`) or king of the side `BLACK`.
#[inline(always)]
const fn capture_dirs<R: Rules, const MAN: bool, const BLACK: bool>() -> u8 {
    if MAN {
        if BLACK {
            const { flip_dirs(R::MAN_CAPTURES) }
        } else {
            R::MAN_CAPTURES
        }
    } else {
        R::KING_CAPTURES
    }
}
