//! Legal-move-set tests, one or more per rule of docs/rules.md, named after the rule id.
//! Each gives a position and the exact set of legal moves in the variant's notation.
//! docs/rules.md's own examples come first in each group, then adversarial positions.

use dama::fen::parse_fen;
use dama::game::{Game, Outcome};
use dama::movegen;
use dama::notation::{move_text, parse_move};
use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::{Color, Move, Piece, Position, Rules, Square};

fn pos<R: Rules>(fen: &str) -> Position<R> {
    parse_fen::<R>(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn texts<R: Rules>(p: &Position<R>) -> Vec<String> {
    let mut v: Vec<String> = movegen::legal_moves(p)
        .iter()
        .map(|m| move_text(p, m))
        .collect();
    v.sort();
    v
}

/// The legal moves of `fen` are exactly `expected` (as a set, canonical notation).
fn assert_moves<R: Rules>(fen: &str, expected: &[&str]) {
    let p = pos::<R>(fen);
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(texts(&p), want, "{} {fen}", R::NAME);
    assert_eq!(movegen::count(&p), want.len(), "count, {} {fen}", R::NAME);
    assert_eq!(movegen::has_moves(&p), !want.is_empty());
}

fn mv<R: Rules>(p: &Position<R>, text: &str) -> Move {
    parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    dama::notation::parse_square::<Dameo>(name).unwrap()
}

fn piece_after<R: Rules>(fen: &str, text: &str, at: &str) -> Option<Piece> {
    let p = pos::<R>(fen);
    p.play(&mv(&p, text)).piece_at(sq(at))
}

const WHITE_MAN: Option<Piece> = Some(Piece {
    color: Color::White,
    king: false,
});
const WHITE_KING: Option<Piece> = Some(Piece {
    color: Color::White,
    king: true,
});

// ---------------------------------------------------------------- G: general rules

#[test]
fn g1_flying_king_paths_through_two_landing_squares_are_one_move() {
    // a1 takes c3 landing on d4 or e5, then f6 from either: 4 paths, 2 moves.
    let fen = "W:WKa1:Bc3,f6";
    assert_moves::<Scandinavian>(fen, &["a1xd4xg7", "a1xd4xh8"]);
    let p = pos::<Scandinavian>(fen);
    assert_eq!(movegen::count_paths(&p), 4);
    // Any path of a move names it (N2).
    assert_eq!(mv(&p, "a1xe5xh8"), mv(&p, "a1xd4xh8"));
}

#[test]
fn g1_english_king_circular_capture_both_ways_is_one_move() {
    // The king on 18 (d4) takes 15, 7, 6, 14 round a loop, clockwise or not.
    let fen = "W:WK18:B6,7,14,15";
    assert_moves::<English>(fen, &["18x11x2x9x18"]);
    let p = pos::<English>(fen);
    assert_eq!(movegen::count_paths(&p), 2);
    assert_eq!(mv(&p, "18x9x2x11x18"), mv(&p, "18x11x2x9x18"));
    // The king is back on its square and the four men are gone.
    let after = p.play(&mv(&p, "18x9x2x11x18"));
    assert_eq!(after.pieces(Color::Black).count(), 0);
    assert_eq!(after.piece_at(sq("d4")), WHITE_KING);
}

#[test]
fn g1_dameo_man_circular_capture_is_one_move() {
    let fen = "W:We4:Be5,f6,g5,f4";
    assert_moves::<Dameo>(fen, &["e4xe6xg6xg4xe4"]);
    assert_eq!(movegen::count_paths(&pos::<Dameo>(fen)), 2);
}

#[test]
fn g2_capture_is_compulsory() {
    assert_moves::<Scandinavian>("W:Wc3,g3:Bd4", &["c3xe5"]);
    // A king's quiet moves are illegal when a man can capture.
    assert_moves::<Dameo>("W:Wd4,Ka1:Bd5,h8", &["d4xd6"]);
    let p = pos::<English>("W:W22,K32:B18");
    assert!(parse_move(&p, "32-27").is_err());
}

#[test]
fn g3_sequence_goes_on_with_changes_of_direction() {
    // docs/rules.md examples.
    assert_moves::<Dameo>("W:We2:Be3,f4,g5,a8", &["e2xe4xg4xg6"]);
    assert_moves::<Scandinavian>("W:Wa1:Bb2,b4,b6,h8", &["a1xc3xa5xc7"]);
    // Free choice does not allow stopping early: only the complete sequence.
    assert_moves::<English>("W:W30:B26,19,h8", &["30x23x16"]);
}

#[test]
fn g4_captured_pieces_cannot_be_jumped_twice() {
    // docs/rules.md example: after a1xf6xd8 the king cannot cross e7 again.
    assert_moves::<Scandinavian>("W:WKa1:Bd4,e7,b6,Kg5,h8", &["a1xf6xd8xa5", "a1xf6xh4"]);
}

#[test]
fn g4_coup_turc_captured_pieces_block_until_the_end() {
    // Freeling's coup turc (docs/rules.md): every Black reply and White's final are forced.
    let mut game = Game::new(pos::<Dameo>("W:Wb5,c1,d1,d2,e1,h2:BKa5,b7,c6,d5"));
    let forced = |g: &Game<Dameo>| texts(g.position());
    assert!(forced(&game).contains(&"c1-e3".to_string()));
    let p = *game.position();
    assert!(game.play(&mv(&p, "c1-e3")));
    assert_eq!(forced(&game), vec!["a5xc5"]);
    let p = *game.position();
    assert!(game.play(&mv(&p, "a5xc5")));
    assert!(forced(&game).contains(&"e1-c3".to_string()));
    let p = *game.position();
    assert!(game.play(&mv(&p, "e1-c3")));
    // The king must stop on d3: c3 and e3 stay on the board until the move ends.
    assert_eq!(forced(&game), vec!["c5xc1xh1xh3xd3"]);
    let p = *game.position();
    assert!(game.play(&mv(&p, "c5xc1xh1xh3xd3")));
    assert_eq!(forced(&game), vec!["d2xd4xd6xb6xb8"]);
}

#[test]
fn g4_origin_square_counts_as_empty() {
    // The croda king leaves e4 and crosses it again on its way to g4/h4.
    let fen = "W:WKe4:Be6,c7,b5,f4";
    assert_moves::<Croda>(fen, &["e4xe7xb7xb4xg4", "e4xe7xb7xb4xh4"]);
    // An english king may end on its own origin (see g1_english_king_...).
}

#[test]
fn g5_landing_restriction_flying_king() {
    // Only e5 lets the capture go on, so the king must land there.
    assert_moves::<Scandinavian>("W:WKa1:Bc3,f4,h8", &["a1xe5xg3", "a1xe5xh2"]);
    // No landing square continues: every one of them is a legal end.
    assert_moves::<Scandinavian>("W:WKa1:Bc3", &["a1xd4", "a1xe5", "a1xf6", "a1xg7", "a1xh8"]);
}

#[test]
fn g5_landing_restriction_long_leaping_man() {
    assert_moves::<BoyerParton>("W:Wa1:Bc3,c5", &["a1xd4xa7", "a1xd4xb6"]);
}

#[test]
fn g5_landing_restriction_croda_king() {
    // Beyond d5 the king may stop on d6, d7 or d8; only d7 continues (to f7/g7/h7 over e7)
    assert_moves::<Croda>("W:WKd1:Bd5,e7,h8", &["d1xd7xf7", "d1xd7xg7", "d1xd7xh7"]);
}

#[test]
fn g6_short_leap_lands_directly_beyond() {
    // docs/rules.md: d4 cannot take c5 and land on a7, only on b6; e3 is behind; e5 is
    // protected by f6.
    assert_moves::<Scandinavian>("W:Wd4:Bc5,e3,e5,f6,h8", &["d4xb6"]);
    // An english king jumps only an adjacent piece.
    assert_moves::<English>("W:WK29:B22", &["29-25"]);
    assert_moves::<English>("W:WK29:B25", &["29x22"]);
}

#[test]
fn g7_man_on_far_rank_mid_capture_goes_on_as_a_man() {
    // docs/rules.md examples (without the black man on h1, which N1 forbids: a Black man
    // cannot stand on rank 1).
    let fen = "W:Wa6:Ba7,b8,d8,e7,Kg8";
    assert_moves::<Dameo>(fen, &["a6xa8xc8xe8xe6"]);
    assert_eq!(piece_after::<Dameo>(fen, "a6xa8xc8xe8xe6", "e6"), WHITE_MAN);
    let fen = "W:Wa6:Ba7,b8,d8,Kg8";
    assert_moves::<Dameo>(fen, &["a6xa8xc8xe8"]);
    assert_eq!(piece_after::<Dameo>(fen, "a6xa8xc8xe8", "e8"), WHITE_KING);
    // The same in croda.
    assert_moves::<Croda>("W:Wa6:Ba7,b8,d8,e7,Kg8", &["a6xa8xc8xe8xe6"]);
    assert_eq!(
        piece_after::<Croda>("W:Wa6:Ba7,b8,d8,Kg8", "a6xa8xc8xe8", "e8"),
        WHITE_KING
    );
}

#[test]
fn g7_black_promotes_on_rank_one() {
    let fen = "B:WKh8:Bd2";
    let p = pos::<Dameo>(fen);
    let after = p.play(&mv(&p, "d2-d1"));
    assert_eq!(
        after.piece_at(sq("d1")),
        Some(Piece {
            color: Color::Black,
            king: true
        })
    );
}

#[test]
fn g8_no_legal_move_loses() {
    // White's only man is blocked.
    let p = pos::<English>("W:W29:B22,25");
    assert!(!movegen::has_moves(&p));
    assert_eq!(movegen::count(&p), 0);
    assert_eq!(
        Game::new(p).outcome(),
        Some(Outcome::NoMoves {
            loser: Color::White
        })
    );
    // No pieces at all.
    let p = pos::<Dameo>("W:W:Bd4");
    assert!(!movegen::has_moves(&p));
    assert_eq!(Game::new(p).outcome().unwrap().winner(), Some(Color::Black));
}

fn shuffle_to_third_repetition<R: Rules>(fen: &str, cycle: [&str; 4]) {
    let mut game = Game::new(pos::<R>(fen));
    for round in 0..2 {
        for (i, m) in cycle.iter().enumerate() {
            assert_eq!(game.outcome(), None, "round {round} ply {i}");
            let p = *game.position();
            assert!(game.play(&mv(&p, m)));
        }
    }
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Repetition));
}

#[test]
fn g9_third_repetition_draws_in_every_variant() {
    shuffle_to_third_repetition::<Dameo>("W:WKa1:BKh8", ["a1-a2", "h8-h7", "a2-a1", "h7-h8"]);
    shuffle_to_third_repetition::<Croda>("W:WKa1:BKh8", ["a1-a2", "h8-h7", "a2-a1", "h7-h8"]);
    shuffle_to_third_repetition::<Scandinavian>(
        "W:WKc1:BKf8",
        ["c1-d2", "f8-e7", "d2-c1", "e7-f8"],
    );
    shuffle_to_third_repetition::<BoyerParton>("W:WKc1:BKf8", ["c1-d2", "f8-e7", "d2-c1", "e7-f8"]);
    shuffle_to_third_repetition::<English>("W:WK29:BK4", ["29-25", "4-8", "25-29", "8-4"]);
}

#[test]
fn g9_a_man_move_breaks_the_repetition_window() {
    let mut game = Game::new(pos::<English>("W:WK29,24:BK4"));
    for m in ["29-25", "4-8", "25-29", "8-4", "24-20", "4-8"] {
        let p = *game.position();
        assert!(game.play(&mv(&p, m)), "{m}");
    }
    assert_eq!(game.position().reversible_plies(), 1);
    assert_eq!(game.occurrences(), 1);
}

// ---------------------------------------------------------------- D: dameo

#[test]
fn d1_start_position() {
    let p = Position::<Dameo>::start();
    assert_eq!(p.pieces(Color::White).count(), 18);
    assert_eq!(p.pieces(Color::Black).count(), 18);
    assert_eq!(p.side(), Color::White);
    assert_eq!(
        dama::fen::to_fen(&p),
        "W:Wa1,b1,c1,d1,e1,f1,g1,h1,b2,c2,d2,e2,f2,g2,c3,d3,e3,f3\
         :Bc6,d6,e6,f6,b7,c7,d7,e7,f7,g7,a8,b8,c8,d8,e8,f8,g8,h8"
    );
}

#[test]
fn d2_linear_moves_along_a_file() {
    assert_moves::<Dameo>(
        "W:We1,e2,e3:Bh8",
        &[
            "e1-e4", "e1-d2", "e1-f2", "e2-e4", "e2-d3", "e2-f3", "e3-e4", "e3-d4", "e3-f4",
        ],
    );
}

#[test]
fn d2_linear_moves_along_a_diagonal_and_for_black() {
    assert_moves::<Dameo>(
        "W:Wc1,d2:Bh8",
        &["c1-b2", "c1-c2", "c1-e3", "d2-c3", "d2-d3", "d2-e3"],
    );
    // The seed's line e8-d7-c6 moves down-left as one: e8-b5 among Black's moves.
    let p = pos::<Dameo>("B:Wh1:Be8,d7,c6");
    let t = texts(&p);
    for m in [
        "e8-b5", "d7-b5", "c6-b5", "e8-e7", "e8-f7", "d7-d6", "d7-e6", "c6-c5", "c6-d5",
    ] {
        assert!(t.contains(&m.to_string()), "{m} in {t:?}");
    }
    assert_eq!(t.len(), 9, "{t:?}");
}

#[test]
fn d2_linear_move_blocked_by_own_king() {
    // The king on e2 breaks the line: e1 cannot move north at all.
    let p = pos::<Dameo>("W:We1,Ke2,e3:Bh8");
    let t = texts(&p);
    assert!(!t.iter().any(|m| m.starts_with("e1-e")), "{t:?}");
    assert!(t.contains(&"e3-e4".to_string()));
    assert!(t.contains(&"e1-d2".to_string()));
}

#[test]
fn d2_linear_move_blocked_by_enemy_and_edge() {
    // e3 (enemy) ends the line: neither e1 nor e2 moves north.
    assert_moves::<Dameo>("W:We1,e2:Be3,e4", &["e1-d2", "e1-f2", "e2-d3", "e2-f3"]);
    // The edge: a line on the h-file cannot go right.
    assert_moves::<Dameo>("W:Wh5,h6:Bb8", &["h5-g6", "h5-h7", "h6-g7", "h6-h7"]);
}

#[test]
fn d3_king_moves_like_a_queen() {
    let p = pos::<Dameo>("W:WKd4:Bh8,a8");
    let t = texts(&p);
    assert_eq!(t.len(), 26, "{t:?}");
    for m in ["d4-g7", "d4-a7", "d4-h4", "d4-d8", "d4-a1", "d4-g1"] {
        assert!(t.contains(&m.to_string()), "{m}");
    }
    assert!(!t.contains(&"d4-h8".to_string()));
}

#[test]
fn d4_man_captures_orthogonally_in_all_four_directions() {
    // Seed figure 7: b6 can take towards b4, d6 or b8; diagonal neighbours are safe.
    assert_moves::<Dameo>("W:Wb6:Bb5,c6,b7,a6,c7", &["b6xb4", "b6xb8", "b6xd6"]);
    // Backwards too.
    assert_moves::<Dameo>("W:Wd4:Bd3,h8", &["d4xd2"]);
}

#[test]
fn d5_king_captures_orthogonally_only_with_the_long_leap() {
    assert_moves::<Dameo>("W:WKd4:Bf6,d7,b4", &["d4xa4", "d4xd8"]);
    // Seed figure 10: f6, d7 and b5 in one move, ending anywhere on b4-b1.
    assert_moves::<Dameo>(
        "W:WKf2:Bf6,d7,b5,h8",
        &["f2xf7xb7xb1", "f2xf7xb7xb2", "f2xf7xb7xb3", "f2xf7xb7xb4"],
    );
}

#[test]
fn d6_majority_counts_kings_and_men_alike() {
    // Two men (a1) or a man and a king (h1) are both 2; c1's single capture is illegal.
    assert_moves::<Dameo>(
        "W:Wa1,c1,Kh1:Ba2,a4,c2,h3,Kh5",
        &["a1xa3xa5", "h1xh4xh6", "h1xh4xh7", "h1xh4xh8"],
    );
}

#[test]
fn d6_majority_over_kings_and_men_of_the_mover() {
    // The king could take one piece; the man must take two instead.
    assert_moves::<Dameo>("W:Wa1,Kh5:Ba2,a4,h7", &["a1xa3xa5"]);
}

#[test]
fn d7_only_the_man_landing_on_the_far_rank_promotes() {
    let fen = "W:Wh6,h7:Bb8";
    let p = pos::<Dameo>(fen);
    let after = p.play(&mv(&p, "h6-h8"));
    assert_eq!(after.piece_at(sq("h8")), WHITE_KING);
    assert_eq!(after.piece_at(sq("h7")), WHITE_MAN);
}

// ---------------------------------------------------------------- C: croda

#[test]
fn c1_start_position() {
    let p = Position::<Croda>::start();
    assert_eq!(p.pieces(Color::White).count(), 24);
    assert_eq!(p.pieces(Color::Black).count(), 24);
    assert_eq!(p.side(), Color::White);
    assert_eq!(texts(&p).len(), 22);
}

#[test]
fn c2_men_step_without_linear_moves() {
    assert_moves::<Croda>(
        "W:We1,e2,e3:Bh8",
        &[
            "e1-d2", "e1-f2", "e2-d3", "e2-f3", "e3-d4", "e3-e4", "e3-f4",
        ],
    );
}

#[test]
fn c3_king_moves_like_a_rook() {
    let t = texts(&pos::<Croda>("W:WKd4:Bh8"));
    assert_eq!(t.len(), 14, "{t:?}");
    assert!(!t.contains(&"d4-e5".to_string()));
}

#[test]
fn c4_man_captures_orthogonally_backwards_too() {
    assert_moves::<Croda>("W:Wd4:Bd3,e5,h8", &["d4xd2"]);
}

#[test]
fn c5_king_captures_with_the_long_leap() {
    assert_moves::<Croda>("W:WKd1:Bd5,h8", &["d1xd6", "d1xd7", "d1xd8"]);
    // Not diagonally.
    assert_moves::<Croda>(
        "W:WKd1:Be2",
        &[
            "d1-a1", "d1-b1", "d1-c1", "d1-d2", "d1-d3", "d1-d4", "d1-d5", "d1-d6", "d1-d7",
            "d1-d8", "d1-e1", "d1-f1", "d1-g1", "d1-h1",
        ],
    );
}

#[test]
fn c6_majority_rule() {
    assert_moves::<Croda>("W:Wa1,e1:Ba2,a4,e2", &["a1xa3xa5"]);
}

#[test]
fn c7_promotion_only_at_the_end() {
    let fen = "W:Wa6:Ba7,b8,d8,e7,Kg8";
    assert_eq!(piece_after::<Croda>(fen, "a6xa8xc8xe8xe6", "e6"), WHITE_MAN);
}

// ---------------------------------------------------------------- S: scandinavian

#[test]
fn s1_start_position() {
    let p = Position::<Scandinavian>::start();
    assert_eq!(p.side(), Color::White);
    assert_moves::<Scandinavian>(
        &dama::fen::to_fen(&p),
        &[
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
        ],
    );
}

#[test]
fn s2_men_step_diagonally_forward() {
    assert_moves::<Scandinavian>("W:Wc3:Bh8", &["c3-b4", "c3-d4"]);
    assert_moves::<Scandinavian>("B:Wa1:Bd6", &["d6-c5", "d6-e5"]);
}

#[test]
fn s3_men_capture_forward_only() {
    assert_moves::<Scandinavian>("W:Wd4:Bc3,e5", &["d4xf6"]);
    assert_moves::<Scandinavian>("W:Wd4:Bc3,e3,h8", &["d4-c5", "d4-e5"]);
    // Black captures downwards.
    assert_moves::<Scandinavian>("B:Wc5,e7:Bd6", &["d6xb4"]);
}

#[test]
fn s4_flying_king_moves_and_captures() {
    let t = texts(&pos::<Scandinavian>("W:WKd4:Bh8"));
    assert_eq!(t.len(), 12, "{t:?}");
    assert_moves::<Scandinavian>("W:WKa1:Be5,h8", &["a1xf6", "a1xg7"]);
}

#[test]
fn s5_free_choice_of_capture() {
    // One piece or two: both are legal.
    assert_moves::<Scandinavian>("W:Wa1,h2:Bb2,d4,g3", &["a1xc3xe5", "h2xf4"]);
}

#[test]
fn s6_promotion_ends_the_move() {
    // b6 takes c7 and is crowned on d8; as a king it could take e7, but the move ends.
    let fen = "W:Wb6:Bc7,e7";
    assert_moves::<Scandinavian>(fen, &["b6xd8"]);
    assert_eq!(piece_after::<Scandinavian>(fen, "b6xd8", "d8"), WHITE_KING);
    assert_moves::<BoyerParton>(fen, &["b6xd8"]);
}

// ---------------------------------------------------------------- B: boyer-parton

#[test]
fn b1_men_capture_with_the_long_leap_forward_only() {
    assert_moves::<BoyerParton>("W:Wa1:Bd4", &["a1xe5", "a1xf6", "a1xg7", "a1xh8"]);
    assert_eq!(
        piece_after::<BoyerParton>("W:Wa1:Bd4", "a1xh8", "h8"),
        WHITE_KING
    );
    // Scandinavian men cannot: d4 is not adjacent.
    assert_moves::<Scandinavian>("W:Wa1:Bd4", &["a1-b2"]);
    // Never backwards.
    assert_moves::<BoyerParton>("W:We5:Bc3", &["e5-d6", "e5-f6"]);
    // Quiet moves unchanged: one square.
    assert_moves::<BoyerParton>("W:Wa1:Bh8", &["a1-b2"]);
}

// ---------------------------------------------------------------- E: english

#[test]
fn e1_start_black_moves_first() {
    let p = Position::<English>::start();
    assert_eq!(p.side(), Color::Black);
    assert_eq!(
        dama::fen::to_fen(&p),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_moves::<English>(
        "B:W21-32:B1-12",
        &["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"],
    );
}

#[test]
fn e2_e3_men_move_and_capture_forward_only() {
    assert_moves::<English>("W:W22:B1", &["22-17", "22-18"]);
    assert_moves::<English>("W:W22:B26,1", &["22-17", "22-18"]);
    assert_moves::<English>("W:W22:B17,1", &["22x13"]);
}

#[test]
fn e4_king_steps_one_square_and_jumps_short() {
    assert_moves::<English>("W:WK18:B1", &["18-14", "18-15", "18-22", "18-23"]);
    assert_moves::<English>("W:WK18:B23,1", &["18x27"]);
}

#[test]
fn e5_free_choice() {
    assert_moves::<English>("W:W21,30:B17,19,26", &["21x14", "30x23x16"]);
}

#[test]
fn e6_promotion_ends_the_move() {
    // 10 takes 7 and is crowned on 3; as a king it could take 8, but the move ends.
    let fen = "W:W10:B7,8";
    assert_moves::<English>(fen, &["10x3"]);
    assert_eq!(piece_after::<English>(fen, "10x3", "f8"), WHITE_KING);
}

#[test]
fn e7_hundred_plies_without_capture_draw() {
    let start = pos::<English>("W:WK29:BK4");
    let mut game = Game::new(start.with_counters(0, 96));
    for m in ["29-25", "4-8", "25-22"] {
        let p = *game.position();
        assert!(game.play(&mv(&p, m)));
        assert_eq!(game.outcome(), None);
    }
    let p = *game.position();
    assert!(game.play(&mv(&p, "8-11")));
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(game.outcome(), Some(Outcome::NoCapture(100)));
    // A man move does not reset the count; a capture does.
    let p = pos::<English>("W:W22:B1").with_counters(0, 10);
    let q = p.play(&mv(&p, "22-17"));
    assert_eq!(q.plies_since_capture(), 11);
    assert_eq!(q.reversible_plies(), 0);
    let p = pos::<English>("W:W22:B17,1").with_counters(5, 10);
    let q = p.play(&mv(&p, "22x13"));
    assert_eq!((q.plies_since_capture(), q.reversible_plies()), (0, 0));
}

#[test]
fn e8_pdn_numbers() {
    let p = pos::<English>("B:W21-32:B1-12");
    assert_eq!(p, Position::<English>::start());
    let same = pos::<English>(
        "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    );
    assert_eq!(same, p);
    assert_eq!(move_text(&p, &mv(&p, "b6-a5")), "9-13");
}
