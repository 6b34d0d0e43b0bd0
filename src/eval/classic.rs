//! Static evaluation, generic over the rules, with the weights as data.
//!
//! The evaluation is linear in a small set of features (each White's count minus
//! Black's), so the same code serves the search ([`evaluate`]) and the tuner
//! ([`features`]): `score = Σ weight[i] * feature[i]`, scaled down in drawish endings and
//! seen from the side to move. Scores are in hundredths of a man.

#![allow(clippy::needless_range_loop)] // parallel arrays of features and weights

use crate::bitboard::{Bitboard, Dir};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Score};

/// The features, in the order of [`Weights::values`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "man",
    "king",
    "rank1",
    "rank2",
    "rank3",
    "rank4",
    "rank5",
    "rank6",
    "back_rank_guard",
    "centre_man",
    "centre_king",
    "mobility",
    "runaway",
    "king_edge",
];

/// Number of features.
pub const FEATURES: usize = 14;

/// The largest weight a weights file may give, in hundredths of a man (100 men).
pub const MAX_WEIGHT: i32 = 10_000;

/// Evaluation weights, one per feature, plus the side-to-move bonus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// One weight per entry of [`FEATURE_NAMES`].
    pub values: [i32; FEATURES],
    /// Bonus for having the move (tempo).
    pub tempo: i32,
}

impl Weights {
    /// The weights `R` plays with: the tuned data file `src/eval/weights/<variant>.txt`.
    pub fn default_for<R: Rules>() -> Weights {
        let text = match R::NAME {
            "dameo" => include_str!("weights/dameo.txt"),
            "croda" => include_str!("weights/croda.txt"),
            "scandinavian" => include_str!("weights/scandinavian.txt"),
            "boyer-parton" => include_str!("weights/boyer-parton.txt"),
            _ => include_str!("weights/english.txt"),
        };
        // The files are checked by a unit test; fall back to the hand-set weights.
        Weights::parse(text).unwrap_or_else(|_| Weights::hand_set::<R>())
    }

    /// The hand-set starting weights of `R` (before tuning): a flying or Dameo king is
    /// worth far more than a short english king.
    pub fn hand_set<R: Rules>() -> Weights {
        let king = match (R::KING_FLIES, R::KING_LONG_LEAP, R::BOARD.count()) {
            (true, true, 64) if R::KING_STEPS == 0xFF => 350, // dameo: queen moves
            (true, true, 64) => 280,                          // croda: rook moves
            (true, true, _) => 300,                           // scandinavian, boyer-parton
            _ => 140,                                         // english
        };
        let advance = if R::BOARD.count() == 64 { 4 } else { 3 };
        Weights {
            values: [
                100,
                king,
                0,
                advance,
                2 * advance,
                3 * advance,
                5 * advance,
                8 * advance,
                6,
                4,
                6,
                2,
                25,
                -4,
            ],
            tempo: 3,
        }
    }

    /// Reads weights written as `name value` lines (`#` starts a comment), one line per
    /// feature of [`FEATURE_NAMES`] and one for `tempo`.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut values: [Option<i32>; FEATURES] = [None; FEATURES];
        let mut tempo = None;
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line
                .split(|c: char| c.is_whitespace() || c == '=')
                .filter(|w| !w.is_empty());
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("line {}: expected 'name value'", n + 1));
            };
            let v: i32 = value
                .parse()
                .map_err(|_| format!("line {}: '{value}' is not an integer", n + 1))?;
            if v.abs() > MAX_WEIGHT {
                return Err(format!(
                    "line {}: weight {v} is out of range -{MAX_WEIGHT}..{MAX_WEIGHT}",
                    n + 1
                ));
            }
            if name == "tempo" {
                tempo = Some(v);
            } else if let Some(i) = FEATURE_NAMES.iter().position(|f| *f == name) {
                values[i] = Some(v);
            } else {
                return Err(format!("line {}: unknown weight '{name}'", n + 1));
            }
        }
        let mut out = [0; FEATURES];
        for i in 0..FEATURES {
            out[i] = values[i].ok_or_else(|| format!("missing weight '{}'", FEATURE_NAMES[i]))?;
        }
        Ok(Weights {
            values: out,
            tempo: tempo.ok_or("missing weight 'tempo'")?,
        })
    }

    /// The weights as text that [`Weights::parse`] reads back.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (name, v) in FEATURE_NAMES.iter().zip(self.values) {
            s.push_str(&format!("{name} {v}\n"));
        }
        s.push_str(&format!("tempo {}\n", self.tempo));
        s
    }
}

/// Squares in the middle of the board (c3-f6).
const CENTRE: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);
/// The border squares.
const EDGE: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

/// A man's rank counted from its own side: 0 = its back rank.
#[inline(always)]
fn relative_rank_masks(c: Color) -> [Bitboard; 8] {
    let mut m = [Bitboard::EMPTY; 8];
    for (r, slot) in m.iter_mut().enumerate() {
        let rank = match c {
            Color::White => r,
            Color::Black => 7 - r,
        };
        *slot = Bitboard(0xFFu64 << (8 * rank));
    }
    m
}

/// The features of one side (not yet the difference).
fn side_features<R: Rules>(pos: &Position<R>, us: Color) -> [i32; FEATURES] {
    let them = us.opponent();
    let men = pos.men(us);
    let kings = pos.kings(us);
    let empty = pos.empty();
    let ranks = relative_rank_masks(us);
    let mut f = [0i32; FEATURES];
    f[0] = men.count() as i32;
    f[1] = kings.count() as i32;
    for r in 1..=6 {
        f[1 + r] = (men & ranks[r]).count() as i32;
    }
    // Men at home guard the crowning squares while the opponent still has men.
    if pos.men(them).any() {
        f[8] = (men & ranks[0]).count() as i32;
    }
    f[9] = (men & CENTRE).count() as i32;
    f[10] = (kings & CENTRE).count() as i32;
    // Mobility: squares the men can step to and squares next to kings.
    let mut targets = 0;
    let steps = if us == Color::White {
        R::MAN_STEPS
    } else {
        crate::bitboard::flip_dirs(R::MAN_STEPS)
    };
    for d in Dir::ALL {
        if steps & d.bit() != 0 {
            targets += (men.shift(d) & empty).count() as i32;
        }
        if R::KING_STEPS & d.bit() != 0 {
            targets += (kings.shift(d) & empty).count() as i32;
        }
    }
    f[11] = targets;
    f[12] = runaways(pos, us, &ranks);
    f[13] = (kings & EDGE).count() as i32;
    f
}

/// Men on the opponent's half with no enemy piece in the cone in front of them.
fn runaways<R: Rules>(pos: &Position<R>, us: Color, ranks: &[Bitboard; 8]) -> i32 {
    let enemy = pos.pieces(us.opponent());
    let (forward, left, right) = match us {
        Color::White => (Dir::N, Dir::NW, Dir::NE),
        Color::Black => (Dir::S, Dir::SW, Dir::SE),
    };
    let advanced = pos.men(us) & (ranks[4] | ranks[5] | ranks[6]);
    let mut n = 0;
    for sq in advanced {
        // The cone widens one file each rank.
        let mut cone = Bitboard::EMPTY;
        let mut row = Bitboard::from_square(sq);
        loop {
            row = row.shift(forward) | row.shift(left) | row.shift(right);
            if row.is_empty() {
                break;
            }
            cone |= row;
        }
        if (cone & enemy).is_empty() {
            n += 1;
        }
    }
    n
}

/// The features of `pos`, White's minus Black's.
pub fn features<R: Rules>(pos: &Position<R>) -> [i32; FEATURES] {
    let w = side_features(pos, Color::White);
    let b = side_features(pos, Color::Black);
    let mut f = [0; FEATURES];
    for i in 0..FEATURES {
        f[i] = w[i] - b[i];
    }
    f
}

/// How far a score should be trusted in this material (64 = fully): endings that the
/// stronger side cannot usually win are scaled towards a draw.
pub fn draw_scale<R: Rules>(pos: &Position<R>) -> i32 {
    let count = |c: Color| (pos.men(c).count(), pos.kings(c).count());
    let (wm, wk) = count(Color::White);
    let (bm, bk) = count(Color::Black);
    let (strong, weak) = if wm + 2 * wk >= bm + 2 * bk {
        ((wm, wk), (bm, bk))
    } else {
        ((bm, bk), (wm, wk))
    };
    // Kings only on both sides.
    if strong.0 == 0 && weak.0 == 0 && weak.1 >= 1 {
        let flying = R::KING_FLIES;
        // One king cannot beat one king; long-range kings hold against two (and the
        // lone flying king often against three).
        if strong.1 <= weak.1 || (flying && strong.1 <= 2) {
            return 4;
        }
        if flying && strong.1 == 3 && weak.1 == 1 {
            return 24;
        }
    }
    64
}

/// The static evaluation of `pos` from the side to move's point of view. Meant for
/// positions without a capture (the search resolves captures first).
pub fn evaluate<R: Rules>(pos: &Position<R>, w: &Weights) -> Score {
    let f = features(pos);
    // In i64 and clamped far below the win scores, whatever a weights file holds.
    let mut s: i64 = 0;
    for i in 0..FEATURES {
        s += i64::from(w.values[i]) * i64::from(f[i]);
    }
    s = s * i64::from(draw_scale(pos)) / 64;
    let s = if pos.side() == Color::White { s } else { -s };
    let bound = i64::from(crate::types::MATE_BOUND / 2);
    (s + i64::from(w.tempo)).clamp(-bound, bound) as Score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};

    fn check<R: Rules>() {
        let name = R::NAME;
        let text = match name {
            "dameo" => include_str!("weights/dameo.txt"),
            "croda" => include_str!("weights/croda.txt"),
            "scandinavian" => include_str!("weights/scandinavian.txt"),
            "boyer-parton" => include_str!("weights/boyer-parton.txt"),
            _ => include_str!("weights/english.txt"),
        };
        let w = Weights::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(w.values[0], 100, "{name}: a man is worth 100");
        assert_eq!(Weights::parse(&w.to_text()).unwrap(), w);
    }

    #[test]
    fn weight_files_parse() {
        check::<Dameo>();
        check::<Croda>();
        check::<Scandinavian>();
        check::<BoyerParton>();
        check::<English>();
        assert!(Weights::parse("man 100").is_err());
        assert!(Weights::parse("bogus 1").is_err());
    }

    #[test]
    fn start_positions_are_level() {
        fn level<R: Rules>() {
            let p = Position::<R>::start();
            let w = Weights::default_for::<R>();
            // Symmetric start: only the tempo bonus remains.
            assert_eq!(evaluate(&p, &w), w.tempo, "{}", R::NAME);
        }
        level::<Dameo>();
        level::<Croda>();
        level::<Scandinavian>();
        level::<BoyerParton>();
        level::<English>();
    }
}
