//! The board's WebSocket messages: `serve::message::parse_command` on the text of a
//! message. A `new` message that parses has its FEN and moves read as the board reads
//! them (`parse_fen`, then each move with `parse_any_move`).

#![no_main]

use dama::fen::parse_fen;
use dama::protocol::hubpos::parse_any_move;
use dama::serve::message::{parse_command, Command};
use dama::{with_variant, Position, Rules};
use libfuzzer_sys::fuzz_target;

fn load<R: Rules>(fen: Option<&str>, moves: Option<&str>) {
    let pos = match fen {
        Some(f) => parse_fen::<R>(f).ok(),
        None => Some(Position::start()),
    };
    let Some(mut pos) = pos else { return };
    for m in moves.unwrap_or("").split_whitespace() {
        match parse_any_move(&pos, m) {
            Ok(mv) => pos = pos.play(&mv),
            Err(_) => return,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(Command::New {
        variant,
        fen,
        moves,
    }) = parse_command(&text)
    {
        with_variant!(variant, R => load::<R>(fen.as_deref(), moves.as_deref()));
    }
});
