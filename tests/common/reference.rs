//! A slow, obviously-correct reference move generator written directly from `docs/rules.md`.
//!
//! It shares nothing with the engine's move generator: the board is an 8x8 mailbox,
//! pieces move one square at a time by (file, rank) arithmetic, and captures are found by
//! a plain recursive search that records every capture path. The engine is used only for
//! its vocabulary types ([`Square`], [`Color`], [`Move`], [`Bitboard`] as a set of squares)
//! and to read a [`Position`]'s pieces. The variant is recognised by [`Rules::NAME`]; its
//! behaviour is then taken from [`Spec`], a transcription of `docs/rules.md`, not from the
//! engine's [`Rules`] constants (which [`Spec::agrees_with`] checks separately).

use dama::bitboard::Bitboard;
use dama::{Color, Move, Piece, Position, Rules, Square};

/// A square as (file, rank), both 0..8 when on the board.
type Coord = (i8, i8);

/// One jump: the square of the captured piece and the squares the piece may land on.
type Jump = (Coord, Vec<Coord>);

/// A direction as (file step, rank step), seen from White's side (rank step +1 = forward).
pub type Delta = (i8, i8);

const N: Delta = (0, 1);
const NE: Delta = (1, 1);
const E: Delta = (1, 0);
const SE: Delta = (1, -1);
const S: Delta = (0, -1);
const SW: Delta = (-1, -1);
const W: Delta = (-1, 0);
const NW: Delta = (-1, 1);

const ORTHOGONAL: &[Delta] = &[N, E, S, W];
const DIAGONAL: &[Delta] = &[NE, SE, SW, NW];
const QUEEN: &[Delta] = &[N, NE, E, SE, S, SW, W, NW];
const FORWARD_THREE: &[Delta] = &[NW, N, NE];
const FORWARD_DIAGONAL: &[Delta] = &[NW, NE];

/// How a piece captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leap {
    /// G6: jump an adjacent enemy piece, land directly beyond it.
    Short,
    /// G5: cross empty squares, jump, land anywhere on the empty run beyond.
    Long,
}

/// One rule set, transcribed from `docs/rules.md` (directions from White's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The variant's name (`Rules::NAME`).
    pub name: &'static str,
    /// S1/E1: only the 32 dark squares are played on (D1/C1: all 64).
    pub dark_only: bool,
    /// Who moves first (E1: Black in english, White elsewhere).
    pub first: Color,
    /// Directions of a man's one-square quiet step.
    pub man_steps: &'static [Delta],
    /// D2: linear moves (a line of own men advances one step along itself).
    pub man_lines: bool,
    /// Directions in which a man captures.
    pub man_captures: &'static [Delta],
    /// How a man captures.
    pub man_leap: Leap,
    /// Directions of a king's quiet move.
    pub king_steps: &'static [Delta],
    /// A king's quiet move goes any distance over empty squares.
    pub king_flies: bool,
    /// Directions in which a king captures.
    pub king_captures: &'static [Delta],
    /// How a king captures.
    pub king_leap: Leap,
    /// D6/C6: only the captures taking the most pieces are legal.
    pub majority: bool,
    /// S6/E6: a man that reaches the far rank during a capture is crowned and stops.
    pub crowning_ends_capture: bool,
}

impl Spec {
    /// The rule set named `name`, from `docs/rules.md`.
    pub fn named(name: &str) -> Spec {
        match name {
            // D1-D7
            "dameo" => Spec {
                name: "dameo",
                dark_only: false,
                first: Color::White,
                man_steps: FORWARD_THREE,
                man_lines: true,
                man_captures: ORTHOGONAL,
                man_leap: Leap::Short,
                king_steps: QUEEN,
                king_flies: true,
                king_captures: ORTHOGONAL,
                king_leap: Leap::Long,
                majority: true,
                crowning_ends_capture: false,
            },
            // C1-C7
            "croda" => Spec {
                name: "croda",
                dark_only: false,
                first: Color::White,
                man_steps: FORWARD_THREE,
                man_lines: false,
                man_captures: ORTHOGONAL,
                man_leap: Leap::Short,
                king_steps: ORTHOGONAL,
                king_flies: true,
                king_captures: ORTHOGONAL,
                king_leap: Leap::Long,
                majority: true,
                crowning_ends_capture: false,
            },
            // S1-S6
            "scandinavian" => Spec {
                name: "scandinavian",
                dark_only: true,
                first: Color::White,
                man_steps: FORWARD_DIAGONAL,
                man_lines: false,
                man_captures: FORWARD_DIAGONAL,
                man_leap: Leap::Short,
                king_steps: DIAGONAL,
                king_flies: true,
                king_captures: DIAGONAL,
                king_leap: Leap::Long,
                majority: false,
                crowning_ends_capture: true,
            },
            // B1: scandinavian, but men capture with the long leap.
            "boyer-parton" => Spec {
                name: "boyer-parton",
                man_leap: Leap::Long,
                ..Spec::named("scandinavian")
            },
            // E1-E6
            "english" => Spec {
                name: "english",
                dark_only: true,
                first: Color::Black,
                man_steps: FORWARD_DIAGONAL,
                man_lines: false,
                man_captures: FORWARD_DIAGONAL,
                man_leap: Leap::Short,
                king_steps: DIAGONAL,
                king_flies: false,
                king_captures: DIAGONAL,
                king_leap: Leap::Short,
                majority: false,
                crowning_ends_capture: true,
            },
            other => panic!("unknown variant {other}"),
        }
    }

    /// The spec of the rule set `R`.
    pub fn of<R: Rules>() -> Spec {
        Spec::named(R::NAME)
    }

    /// True when `(file, rank)` is a playable square.
    pub fn playable(&self, file: i8, rank: i8) -> bool {
        (0..8).contains(&file)
            && (0..8).contains(&rank)
            && (!self.dark_only || (file + rank) % 2 == 0)
    }

    /// The start position (D1, C1, S1, E1) as (white squares, black squares).
    pub fn start_squares(&self) -> (Vec<Square>, Vec<Square>) {
        let mut white = Vec::new();
        let mut black = Vec::new();
        for rank in 0..8i8 {
            for file in 0..8i8 {
                if !self.playable(file, rank) {
                    continue;
                }
                let sq = square(file, rank);
                let (w, b) = match self.name {
                    // D1: a1-h1, b2-g2, c3-f3 and the mirror image.
                    "dameo" => {
                        let in_trapezium = |r: i8| file >= r && file <= 7 - r;
                        (
                            rank <= 2 && in_trapezium(rank),
                            rank >= 5 && in_trapezium(7 - rank),
                        )
                    }
                    // C1, S1, E1: ranks 1-3 and 6-8.
                    _ => (rank <= 2, rank >= 5),
                };
                if w {
                    white.push(sq);
                }
                if b {
                    black.push(sq);
                }
            }
        }
        (white, black)
    }

    /// Differences between this transcription of `docs/rules.md` and the engine's constants
    /// for `R` (empty when they agree).
    pub fn agrees_with<R: Rules>(&self) -> Vec<String> {
        use dama::bitboard::Dir;
        fn dirset(ds: &[Delta]) -> u8 {
            ds.iter()
                .map(|d| match *d {
                    N => Dir::N.bit(),
                    NE => Dir::NE.bit(),
                    E => Dir::E.bit(),
                    SE => Dir::SE.bit(),
                    S => Dir::S.bit(),
                    SW => Dir::SW.bit(),
                    W => Dir::W.bit(),
                    NW => Dir::NW.bit(),
                    _ => unreachable!(),
                })
                .fold(0, |a, b| a | b)
        }
        let mut diffs = Vec::new();
        let mut check = |what: &str, spec: String, engine: String| {
            if spec != engine {
                diffs.push(format!(
                    "{what}: docs/rules.md says {spec}, Rules says {engine}"
                ));
            }
        };
        let board: u64 = (0..64u8)
            .filter(|i| self.playable((i % 8) as i8, (i / 8) as i8))
            .fold(0, |b, i| b | 1 << i);
        let bits = |sqs: &[Square]| sqs.iter().fold(0u64, |b, s| b | 1 << s.index());
        let (white, black) = self.start_squares();
        check("BOARD", format!("{board:#x}"), format!("{:#x}", R::BOARD.0));
        check(
            "START_WHITE",
            format!("{:#x}", bits(&white)),
            format!("{:#x}", R::START_WHITE.0),
        );
        check(
            "START_BLACK",
            format!("{:#x}", bits(&black)),
            format!("{:#x}", R::START_BLACK.0),
        );
        check(
            "FIRST",
            format!("{:?}", self.first),
            format!("{:?}", R::FIRST),
        );
        check(
            "MAN_STEPS",
            format!("{:#x}", dirset(self.man_steps)),
            format!("{:#x}", R::MAN_STEPS),
        );
        check(
            "MAN_LINES",
            self.man_lines.to_string(),
            R::MAN_LINES.to_string(),
        );
        check(
            "MAN_CAPTURES",
            format!("{:#x}", dirset(self.man_captures)),
            format!("{:#x}", R::MAN_CAPTURES),
        );
        check(
            "MAN_LONG_LEAP",
            (self.man_leap == Leap::Long).to_string(),
            R::MAN_LONG_LEAP.to_string(),
        );
        check(
            "KING_STEPS",
            format!("{:#x}", dirset(self.king_steps)),
            format!("{:#x}", R::KING_STEPS),
        );
        check(
            "KING_FLIES",
            self.king_flies.to_string(),
            R::KING_FLIES.to_string(),
        );
        check(
            "KING_CAPTURES",
            format!("{:#x}", dirset(self.king_captures)),
            format!("{:#x}", R::KING_CAPTURES),
        );
        check(
            "KING_LONG_LEAP",
            (self.king_leap == Leap::Long).to_string(),
            R::KING_LONG_LEAP.to_string(),
        );
        check(
            "MAJORITY",
            self.majority.to_string(),
            R::MAJORITY.to_string(),
        );
        check(
            "CROWNING_ENDS_CAPTURE",
            self.crowning_ends_capture.to_string(),
            R::CROWNING_ENDS_CAPTURE.to_string(),
        );
        // N2/E8: english is written in PDN numbers, the others in algebraic.
        check(
            "NUMERIC_SQUARES",
            (self.name == "english").to_string(),
            R::NUMERIC_SQUARES.to_string(),
        );
        // E7: english draws after 100 plies without a capture; the others have no such rule.
        let no_capture = if self.name == "english" {
            Some(100u32)
        } else {
            None
        };
        check(
            "NO_CAPTURE_DRAW_PLIES",
            format!("{no_capture:?}"),
            format!("{:?}", R::NO_CAPTURE_DRAW_PLIES),
        );
        diffs
    }
}

/// The square on (file, rank), both in 0..8.
pub fn square(file: i8, rank: i8) -> Square {
    Square::from_coords(file as u8, rank as u8).expect("on the board")
}

fn coords(sq: Square) -> Coord {
    (sq.file() as i8, sq.rank() as i8)
}

/// A direction given from White's side, as seen by `c` (Black's forward is down).
fn oriented(d: Delta, c: Color) -> Delta {
    match c {
        Color::White => d,
        Color::Black => (d.0, -d.1),
    }
}

/// The rank on which `c`'s men are crowned (G7).
fn far_rank(c: Color) -> i8 {
    match c {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// A mailbox board: `cells[file][rank]`, plus the side to move and the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// What stands on each square, `cells[file][rank]`.
    pub cells: [[Option<Piece>; 8]; 8],
    /// The side to move.
    pub side: Color,
    spec: Spec,
}

/// The state of a capture in progress.
struct Capture<'a> {
    board: &'a Board,
    spec: Spec,
    color: Color,
    king: bool,
    captured: Vec<Coord>,
    path: Vec<Coord>,
    out: &'a mut Vec<(Move, Vec<Square>)>,
}

impl Capture<'_> {
    /// Every jump from `(f, r)` as (captured square, landing squares), given the pieces
    /// already captured in this move (G4: they stay on the board, block, and cannot be
    /// jumped again; the origin square was emptied before the search).
    fn jumps(&self, from: Coord) -> Vec<Jump> {
        let (dirs, leap) = if self.king {
            (self.spec.king_captures, self.spec.king_leap)
        } else {
            (self.spec.man_captures, self.spec.man_leap)
        };
        let mut jumps = Vec::new();
        for &d in dirs {
            let (df, dr) = oriented(d, self.color);
            let (mut f, mut r) = (from.0 + df, from.1 + dr);
            if leap == Leap::Long {
                // G5: any number of empty squares before the captured piece.
                while self.board.playable(f, r) && self.board.at(f, r).is_none() {
                    f += df;
                    r += dr;
                }
            }
            if !self.board.playable(f, r) {
                continue;
            }
            match self.board.at(f, r) {
                Some(p) if p.color != self.color && !self.captured.contains(&(f, r)) => {}
                _ => continue, // own piece, captured piece (G4) or nothing to jump
            }
            let victim = (f, r);
            let mut landings = Vec::new();
            let (mut lf, mut lr) = (f + df, r + dr);
            while self.board.playable(lf, lr) && self.board.at(lf, lr).is_none() {
                landings.push((lf, lr));
                if leap == Leap::Short {
                    break; // G6: only the square directly beyond
                }
                lf += df;
                lr += dr;
            }
            if !landings.is_empty() {
                jumps.push((victim, landings));
            }
        }
        jumps
    }

    /// True when the capture may (and so must, G3) go on from `sq`.
    fn can_continue(&self, sq: Coord) -> bool {
        // S6/E6: a man that reaches the far rank is crowned and the move ends.
        if !self.king && self.spec.crowning_ends_capture && sq.1 == far_rank(self.color) {
            return false;
        }
        // G7 elsewhere: the piece goes on capturing as a man.
        !self.jumps(sq).is_empty()
    }

    /// Enumerates every way to go on from the last square of the path.
    fn extend(&mut self) {
        let here = *self.path.last().expect("the path holds the origin");
        for (victim, landings) in self.jumps(here) {
            self.captured.push(victim);
            let continues: Vec<bool> = landings.iter().map(|&l| self.can_continue(l)).collect();
            // G5 landing restriction: if some landing squares continue, land on one of them.
            let must_continue = continues.iter().any(|&c| c);
            for (&landing, &cont) in landings.iter().zip(&continues) {
                if must_continue && !cont {
                    continue;
                }
                self.path.push(landing);
                if cont {
                    self.extend(); // G3
                } else {
                    self.record();
                }
                self.path.pop();
            }
            self.captured.pop();
        }
    }

    fn record(&mut self) {
        let captured = self
            .captured
            .iter()
            .fold(0u64, |b, &(f, r)| b | 1 << square(f, r).index());
        let path: Vec<Square> = self.path.iter().map(|&(f, r)| square(f, r)).collect();
        let mv = Move {
            captured: Bitboard(captured),
            from: path[0],
            to: *path.last().unwrap(),
        };
        self.out.push((mv, path));
    }
}

impl Board {
    /// The mailbox of `pos`.
    pub fn from_position<R: Rules>(pos: &Position<R>) -> Board {
        let mut cells = [[None; 8]; 8];
        for c in Color::ALL {
            for sq in pos.pieces(c) {
                let king = pos.kings(c).contains(sq);
                cells[sq.file() as usize][sq.rank() as usize] = Some(Piece { color: c, king });
            }
        }
        Board {
            cells,
            side: pos.side(),
            spec: Spec::of::<R>(),
        }
    }

    /// The start position of the rule set `R`.
    pub fn start<R: Rules>() -> Board {
        let spec = Spec::of::<R>();
        let mut cells = [[None; 8]; 8];
        let (white, black) = spec.start_squares();
        for (c, list) in [(Color::White, white), (Color::Black, black)] {
            for sq in list {
                cells[sq.file() as usize][sq.rank() as usize] = Some(Piece {
                    color: c,
                    king: false,
                });
            }
        }
        Board {
            cells,
            side: spec.first,
            spec,
        }
    }

    /// The rules.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    fn playable(&self, f: i8, r: i8) -> bool {
        self.spec.playable(f, r)
    }

    fn at(&self, f: i8, r: i8) -> Option<Piece> {
        self.cells[f as usize][r as usize]
    }

    /// The pieces of each side and the kings, as square sets.
    pub fn sets(&self) -> ([Bitboard; 2], Bitboard) {
        let mut pieces = [0u64; 2];
        let mut kings = 0u64;
        for f in 0..8i8 {
            for r in 0..8i8 {
                if let Some(p) = self.at(f, r) {
                    let bit = 1u64 << square(f, r).index();
                    pieces[p.color.index()] |= bit;
                    if p.king {
                        kings |= bit;
                    }
                }
            }
        }
        ([Bitboard(pieces[0]), Bitboard(pieces[1])], Bitboard(kings))
    }

    /// Every legal capture path of the side to move (G2-G7, D6/C6), empty when it
    /// cannot capture.
    pub fn capture_paths(&self) -> Vec<(Move, Vec<Square>)> {
        let spec = self.spec();
        let mut out = Vec::new();
        for f in 0..8i8 {
            for r in 0..8i8 {
                let Some(piece) = self.at(f, r) else { continue };
                if piece.color != self.side {
                    continue;
                }
                // G4: the origin counts as empty during the capture.
                let mut lifted = *self;
                lifted.cells[f as usize][r as usize] = None;
                let mut search = Capture {
                    board: &lifted,
                    spec,
                    color: piece.color,
                    king: piece.king,
                    captured: Vec::new(),
                    path: vec![(f, r)],
                    out: &mut out,
                };
                search.extend();
            }
        }
        if spec.majority {
            // D6/C6: only the largest captures, over all the mover's pieces.
            let best = out
                .iter()
                .map(|(m, _)| m.captured.count())
                .max()
                .unwrap_or(0);
            out.retain(|(m, _)| m.captured.count() == best);
        }
        out
    }

    /// Every quiet move of the side to move (D2, D3, C2, C3, S2, S4, E2, E4), ignoring G2.
    pub fn quiet_moves(&self) -> Vec<Move> {
        let spec = self.spec();
        let mut out = Vec::new();
        for f in 0..8i8 {
            for r in 0..8i8 {
                let Some(piece) = self.at(f, r) else { continue };
                if piece.color != self.side {
                    continue;
                }
                let from = square(f, r);
                let empty = |tf: i8, tr: i8| self.playable(tf, tr) && self.at(tf, tr).is_none();
                if piece.king {
                    for &d in spec.king_steps {
                        let (df, dr) = oriented(d, piece.color);
                        let (mut tf, mut tr) = (f + df, r + dr);
                        while empty(tf, tr) {
                            out.push(Move::quiet(from, square(tf, tr)));
                            if !spec.king_flies {
                                break;
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                } else {
                    for &d in spec.man_steps {
                        let (df, dr) = oriented(d, piece.color);
                        let (mut tf, mut tr) = (f + df, r + dr);
                        if spec.man_lines {
                            // D2: walk over the unbroken run of own men (kings block).
                            while self.playable(tf, tr)
                                && self.at(tf, tr)
                                    == Some(Piece {
                                        color: piece.color,
                                        king: false,
                                    })
                            {
                                tf += df;
                                tr += dr;
                            }
                        }
                        if empty(tf, tr) {
                            out.push(Move::quiet(from, square(tf, tr)));
                        }
                    }
                }
            }
        }
        out
    }

    /// Every legal path: the capture paths if there are any (G2), else the quiet moves
    /// as `[from, to]`.
    pub fn paths(&self) -> Vec<(Move, Vec<Square>)> {
        let captures = self.capture_paths();
        if !captures.is_empty() {
            return captures;
        }
        self.quiet_moves()
            .into_iter()
            .map(|m| (m, vec![m.from, m.to]))
            .collect()
    }

    /// The distinct legal moves (G1), sorted by [`move_key`].
    pub fn moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self.paths().into_iter().map(|(m, _)| m).collect();
        moves.sort_by_key(move_key);
        moves.dedup();
        moves
    }

    /// The board after `mv`: the captured pieces are removed together (G4), and a man
    /// that ends its move on the far rank is crowned (G7).
    pub fn play(&self, mv: &Move) -> Board {
        let mut b = *self;
        let (ff, fr) = coords(mv.from);
        let (tf, tr) = coords(mv.to);
        let mut piece = b.cells[ff as usize][fr as usize]
            .take()
            .expect("a piece on the origin");
        for sq in mv.captured {
            let (cf, cr) = coords(sq);
            b.cells[cf as usize][cr as usize] = None;
        }
        if tr == far_rank(piece.color) {
            piece.king = true;
        }
        b.cells[tf as usize][tr as usize] = Some(piece);
        b.side = self.side.opponent();
        b
    }
}

/// A total order on moves, for sorting and comparing move sets.
pub fn move_key(m: &Move) -> (u8, u8, u64) {
    (m.from.index() as u8, m.to.index() as u8, m.captured.0)
}

/// Every legal path of `pos`: capture paths (origin and every landing square) when a
/// capture is possible, else the quiet moves as `[from, to]`.
pub fn reference_paths<R: Rules>(pos: &Position<R>) -> Vec<(Move, Vec<Square>)> {
    Board::from_position(pos).paths()
}

/// The distinct legal moves of `pos` (G1), sorted by [`move_key`].
pub fn reference_moves<R: Rules>(pos: &Position<R>) -> Vec<Move> {
    Board::from_position(pos).moves()
}

/// Perft on the reference generator alone (distinct moves, G1).
pub fn reference_perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| reference_perft(&board.play(m), depth - 1))
        .sum()
}
