//! N1 (PDN FEN) and N2 (move notation): round trips and the exact error messages.

use dama::fen::{parse_fen, to_fen};
use dama::notation::{move_text, parse_move, parse_square, NotationError};
use dama::rules::{Croda, Dameo, English, Scandinavian};
use dama::{movegen, Color, Position, Rules};

fn fen_err<R: Rules>(fen: &str) -> String {
    match parse_fen::<R>(fen) {
        Ok(p) => panic!("{fen} parsed as {p:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn n1_round_trip_every_start_position() {
    fn check<R: Rules>() {
        let p = Position::<R>::start();
        let f = to_fen(&p);
        assert_eq!(parse_fen::<R>(&f).unwrap(), p, "{f}");
    }
    check::<Dameo>();
    check::<Croda>();
    check::<Scandinavian>();
    check::<dama::rules::BoyerParton>();
    check::<English>();
}

#[test]
fn n1_kings_side_and_extra_fields() {
    let p = parse_fen::<Dameo>("B:Wa1,Ke5:Bb8,Kd8:H0:F1").unwrap();
    assert_eq!(p.side(), Color::Black);
    assert_eq!(p.kings(Color::White).count(), 1);
    assert_eq!(p.kings(Color::Black).count(), 1);
    assert_eq!(to_fen(&p), "B:Wa1,Ke5:Bb8,Kd8");
    // Quotes, spaces, a final dot, fields in either order, empty lists.
    let q = parse_fen::<Dameo>(" \"B:Bb8,Kd8:W a1, Ke5.\" ").unwrap();
    assert_eq!(q, p);
    let e = parse_fen::<English>("W:W:B1").unwrap();
    assert_eq!(e.pieces(Color::White).count(), 0);
    assert_eq!(to_fen(&e), "W:W:B1");
}

#[test]
fn n1_numbers_and_ranges_in_dark_square_variants() {
    let p = parse_fen::<English>("W:WK1-3,32:B12-14").unwrap();
    assert_eq!(to_fen(&p), "W:WK1,K2,K3,32:B12,13,14");
    let s = parse_fen::<Scandinavian>("W:W29:B5").unwrap();
    assert_eq!(to_fen(&s), "W:Wa1:Ba7");
}

#[test]
fn n1_errors_name_the_field_and_the_square() {
    assert_eq!(
        fen_err::<Scandinavian>("W:Wa2:Bb8"),
        "bad FEN: in the white field, token 'a2': bad square 'a2': a2 is a light square, not played on in scandinavian"
    );
    assert_eq!(
        fen_err::<Dameo>("W:Wa1,a1:Bb8"),
        "bad FEN: square a1 is given twice in the white field"
    );
    assert_eq!(
        fen_err::<Dameo>("W:Wa1:Ba1"),
        "bad FEN: square a1 is given twice"
    );
    assert_eq!(
        fen_err::<Dameo>("W:Wa8:Bb8"),
        "bad FEN: a white man on a8 stands on its promotion rank"
    );
    assert_eq!(
        fen_err::<English>("W:W5:B32"),
        "bad FEN: a black man on g1 stands on its promotion rank"
    );
    assert_eq!(
        fen_err::<Dameo>("W:W12:Bb8"),
        "bad FEN: in the white field, token '12': bad square '12': numbered squares are only used on the dark-square boards, not in dameo"
    );
    assert_eq!(
        fen_err::<English>("W:W33:B1"),
        "bad FEN: in the white field, token '33': bad square '33': square numbers run from 1 to 32"
    );
    assert_eq!(
        fen_err::<English>("W:W5-3:B1"),
        "bad FEN: in the white field, token '5-3': the range 5-3 runs backwards"
    );
    assert_eq!(
        fen_err::<Dameo>("X:Wa1:Bb8"),
        "bad FEN: the side to move must be W or B, found 'X'"
    );
    assert_eq!(
        fen_err::<Dameo>("W:Wa1"),
        "bad FEN: no Black field (like :Bb8,d8)"
    );
    assert_eq!(
        fen_err::<Dameo>("W:Wa1:Bb8:Wc1"),
        "bad FEN: the white pieces are given twice"
    );
    assert_eq!(
        fen_err::<Dameo>("W:Wz9:Bb8"),
        "bad FEN: in the white field, token 'z9': bad square 'z9': the file must be a letter a-h"
    );
    assert_eq!(fen_err::<Dameo>(""), "bad FEN: empty FEN");
    // Never a panic on junk.
    for junk in [
        "W:",
        ":",
        "W:W,,,:B",
        "W:WK:B",
        "W:W-:B",
        "W:W1-:B",
        "\u{0}\u{7f}",
        "W:Wé1:B",
    ] {
        let _ = parse_fen::<English>(junk);
        let _ = parse_fen::<Dameo>(junk);
    }
}

#[test]
fn n2_quiet_and_capture_notation() {
    let p = Position::<English>::start();
    let m = parse_move(&p, "11-15").unwrap();
    assert_eq!(move_text(&p, &m), "11-15");
    // Algebraic input is accepted in english too.
    assert_eq!(parse_move(&p, "f6-e5").unwrap(), m);
    let p = parse_fen::<Dameo>("W:We2:Be3,f4,g5,a8").unwrap();
    let m = parse_move(&p, "e2xe4xg4xg6").unwrap();
    assert_eq!(move_text(&p, &m), "e2xe4xg4xg6");
    // `from x to` alone, when only one capture joins them.
    assert_eq!(parse_move(&p, "e2xg6").unwrap(), m);
    assert_eq!(parse_move(&p, "E2XE4XG4XG6").unwrap(), m);
}

#[test]
fn n2_ambiguous_and_illegal_moves() {
    // Two captures from d4 to d4? No: two captures a1 -> h8 over different pieces.
    let p = parse_fen::<Scandinavian>("W:WKa1:Bc3,f6").unwrap();
    assert_eq!(parse_move(&p, "a1xh8"), parse_move(&p, "a1xd4xh8"));
    let p = parse_fen::<Dameo>("W:WKa1:Ba3,Kc1,h8").unwrap();
    // a1xa4..a8 over a3, or a1xd1..h1 over c1: from a1 to a5 is unique.
    assert!(parse_move(&p, "a1xa5").is_ok());
    let p = parse_fen::<Croda>("W:WKd4:Bd6,f4,d2,b4,h8").unwrap();
    // Four single captures; d4 to d4 is not one of them.
    assert!(matches!(
        parse_move(&p, "d4xd4"),
        Err(NotationError::Illegal { .. })
    ));
    let p = Position::<English>::start();
    assert_eq!(
        parse_move(&p, "21-17").unwrap_err().to_string(),
        "illegal move '21-17': the piece on 21 belongs to white, and black is to move"
    );
    assert_eq!(
        parse_move(&p, "1-5").unwrap_err().to_string(),
        "illegal move '1-5': the piece on 1 cannot move there"
    );
    assert_eq!(
        parse_move(&p, "14-18").unwrap_err().to_string(),
        "illegal move '14-18': no piece on 14"
    );
    assert_eq!(
        parse_move(&p, "9x14").unwrap_err().to_string(),
        "illegal move '9x14': no capture is possible in this position"
    );
    assert!(matches!(
        parse_move(&p, "9-13-17"),
        Err(NotationError::BadSyntax(_))
    ));
    assert!(matches!(parse_move(&p, ""), Err(NotationError::Empty)));
    assert!(matches!(
        parse_move(&p, "9x13-17"),
        Err(NotationError::BadSyntax(_))
    ));
    let p = parse_fen::<English>("W:W22,K32:B18").unwrap();
    assert_eq!(
        parse_move(&p, "32-27").unwrap_err().to_string(),
        "illegal move '32-27': a capture is compulsory (G2)"
    );
    assert_eq!(
        parse_move(&p, "32x23").unwrap_err().to_string(),
        "illegal move '32x23': the piece on 32 has no capture; legal captures start from 22"
    );
}

#[test]
fn n2_ambiguous_from_to_is_refused() {
    // 22 reaches 6 over 17 and 9, or over 18 and 10: two moves with the same ends.
    let p = parse_fen::<English>("W:W22:B9,10,17,18").unwrap();
    assert_eq!(movegen::count(&p), 2);
    assert_eq!(
        parse_move(&p, "22x6").unwrap_err().to_string(),
        "ambiguous move '22x6': it could be 22x13x6 or 22x15x6"
    );
    assert!(parse_move(&p, "22x15x6").is_ok());
}

#[test]
fn n2_squares() {
    assert_eq!(parse_square::<English>("1").unwrap().to_string(), "b8");
    assert_eq!(parse_square::<English>("b8").unwrap().to_string(), "b8");
    assert!(parse_square::<English>("a8").is_err());
    assert!(parse_square::<Dameo>("a8").is_ok());
    assert!(parse_square::<Dameo>("i1").is_err());
    assert!(parse_square::<Dameo>("a9").is_err());
    assert!(parse_square::<Dameo>("").is_err());
    assert!(parse_square::<English>("0").is_err());
    assert!(parse_square::<English>("99999999999999999999").is_err());
}
