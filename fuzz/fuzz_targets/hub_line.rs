//! The Hub protocol's readers: `syntax::parse_line`, `command::parse_command` and
//! `from_line`, `params::find` and `Param::read` for every parameter, and
//! `hubpos::parse_hub` in every variant. A `pos` command that parses is then set up as
//! the engine's loop does (its FEN or Hub string read in its variant, or English, and
//! its moves played with `parse_any_move`). A value written with `quote` must read back
//! whole.

#![no_main]

use dama::fen::parse_fen;
use dama::protocol::command::{from_line, parse_command, Command, Start};
use dama::protocol::hubpos::{parse_any_move, parse_hub, to_hub};
use dama::protocol::params::{find, PARAMS};
use dama::protocol::syntax::{parse_line, quote};
use dama::{with_variant, Position, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fn hub_string<R: Rules>(text: &str) {
    if let Ok(pos) = parse_hub::<R>(text) {
        let back = to_hub(&pos);
        assert_eq!(parse_hub::<R>(&back), Ok(pos), "{}: '{text}'", R::NAME);
    }
}

/// What `pos` does in the loop (`Session::set_position`), without an engine.
fn set_position<R: Rules>(start: &Start, moves: &[String]) {
    let pos = match start {
        Start::Fen(f) => parse_fen::<R>(f).ok(),
        Start::Hub(h) => parse_hub::<R>(h).ok(),
        Start::Initial => Some(Position::start()),
    };
    let Some(mut pos) = pos else { return };
    for m in moves {
        match parse_any_move(&pos, m) {
            Ok(mv) => pos = pos.play(&mv),
            Err(_) => return,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(Some(line)) = parse_line(&text) {
        let direct = from_line(&line);
        let whole = parse_command(&text);
        assert_eq!(whole.clone().ok().flatten(), direct.clone().ok());
        if let Ok(Command::Pos {
            variant,
            start: Ok(start),
            moves,
        }) = direct
        {
            with_variant!(variant.unwrap_or(Variant::English), R => set_position::<R>(&start, &moves));
        }
    } else {
        let _ = parse_command(&text);
    }
    let _ = find(&text);
    for p in &PARAMS {
        let _ = p.read(&text);
    }
    for v in Variant::ALL {
        with_variant!(v, R => hub_string::<R>(&text));
    }
    // A value the engine writes reads back whole (line breaks are the stream's).
    if !text.contains(['\n', '\r']) {
        let line = format!("error message={}", quote(&text));
        let read = parse_line(&line)
            .expect("a quoted value parses")
            .expect("not blank");
        assert_eq!(
            read.get("message"),
            Some(text.replace('"', "'").as_str()),
            "{line}"
        );
    }
});
