//! The board as an SVG picture: squares, coordinates, the pieces (kings crowned), and
//! the last move's squares marked. Each piece is one `<g class="piece ...">` element.

use crate::board::AnyGame;
use crate::dispatch;
use dama::notation::square_name;
use dama::{Color, Rules, Square};
use std::fmt::Write;

const CELL: i32 = 48;
const MARGIN: i32 = 20;

/// The SVG of the game's current position.
pub fn board_svg(game: &AnyGame) -> String {
    dispatch!(game, g, R => svg_of::<R>(g))
}

fn svg_of<R: Rules>(g: &dama::game::Game<R>) -> String {
    let pos = g.position();
    let size = 8 * CELL + 2 * MARGIN;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {size} {size}" width="{size}" height="{size}" class="dama-board {name}">"#,
        name = R::NAME
    );
    s.push_str(r##"<rect x="0" y="0" width="100%" height="100%" fill="#5c4033"/>"##);
    let last: Vec<Square> = g
        .moves()
        .last()
        .map(|m| vec![m.from, m.to])
        .unwrap_or_default();
    // Squares: White at the bottom, a1 bottom-left.
    for idx in 0..64u8 {
        let sq = Square::new(idx);
        let (x, y) = corner(sq);
        let playable = R::BOARD.contains(sq);
        let fill = match (sq.is_dark(), playable) {
            (true, true) => "#769656",
            (true, false) => "#8a9a78",
            (false, true) => "#c8d6a8",
            (false, false) => "#eeeed2",
        };
        let _ = write!(
            s,
            r#"<rect class="square" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
        );
        if last.contains(&sq) {
            let _ = write!(
                s,
                r##"<rect class="last-move" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f6f669" fill-opacity="0.5"/>"##
            );
        }
        if R::NUMERIC_SQUARES && playable {
            let _ = write!(
                s,
                r##"<text class="square-number" x="{}" y="{}" font-size="10" fill="#ffffff">{}</text>"##,
                x + 3,
                y + 11,
                square_name::<R>(sq)
            );
        }
    }
    // Coordinates.
    for i in 0..8i32 {
        let file = (b'a' + i as u8) as char;
        let _ = write!(
            s,
            r##"<text class="coordinate" x="{}" y="{}" font-size="12" text-anchor="middle" fill="#ffffff">{file}</text>"##,
            MARGIN + i * CELL + CELL / 2,
            MARGIN + 8 * CELL + 15
        );
        let _ = write!(
            s,
            r##"<text class="coordinate" x="{}" y="{}" font-size="12" text-anchor="middle" fill="#ffffff">{}</text>"##,
            MARGIN / 2,
            MARGIN + (7 - i) * CELL + CELL / 2 + 4,
            i + 1
        );
    }
    // Pieces.
    for sq in pos.occupied() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let (x, y) = corner(sq);
        let (cx, cy, r) = (x + CELL / 2, y + CELL / 2, CELL * 2 / 5);
        let (fill, stroke, color) = match p.color {
            Color::White => ("#fafafa", "#333333", "white"),
            Color::Black => ("#222222", "#dddddd", "black"),
        };
        let kind = if p.king { "king" } else { "man" };
        let _ = write!(
            s,
            r#"<g class="piece {color} {kind}" data-square="{}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
            square_name::<R>(sq)
        );
        if p.king {
            let _ = write!(
                s,
                r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{stroke}" stroke-width="2"/><text x="{cx}" y="{}" font-size="{}" text-anchor="middle" fill="{stroke}">K</text>"#,
                r * 2 / 3,
                cy + 6,
                CELL / 3
            );
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The top-left corner of a square's cell.
fn corner(sq: Square) -> (i32, i32) {
    (
        MARGIN + i32::from(sq.file()) * CELL,
        MARGIN + (7 - i32::from(sq.rank())) * CELL,
    )
}
