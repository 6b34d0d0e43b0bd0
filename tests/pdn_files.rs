//! PDN as it is found in the wild (`tests/fixtures/pdn/`, its README lists the forms):
//! every encoding, line end and movetext form reads the same games, through the reader
//! and through every command that takes PDN (`annotate`, the board's PDN load; `match
//! --resume` in `tests/match_resume.rs`); a game that does not read is reported with its
//! number and line and the rest are kept; a file of 100,000 games streams.

mod common;

use common::bin::command_without_databases;
use dama::fen::{parse_fen, to_fen};
use dama::pdn::text::decode;
use dama::pdn::{PdnEntry, PdnReader};
use dama::rules::English;
use dama::Position;
use std::io::Read;
use std::path::PathBuf;

/// The files that hold the same three games.
const SAME_GAMES: [&str; 6] = [
    "utf8-lf.pdn",
    "utf8-bom-crlf.pdn",
    "utf8-cr.pdn",
    "latin1-lf.pdn",
    "windows1252-crlf.pdn",
    "annotated.pdn",
];

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pdn")
        .join(name)
}

fn entries(name: &str) -> Vec<PdnEntry> {
    dama::pdn::open_pdn(&fixture(name)).unwrap().collect()
}

/// What makes a game the same game: names, start, moves, result.
type Essence = (Vec<Option<String>>, String, Vec<String>, String);

fn essence(e: &PdnEntry) -> Essence {
    let g = e
        .game
        .as_ref()
        .unwrap_or_else(|err| panic!("{}: {err}", e.place()));
    let names = ["Event", "White", "Black"]
        .iter()
        .map(|t| g.tag(t).map(str::to_string))
        .collect();
    let start = match g.tag("FEN") {
        Some(f) => to_fen(&parse_fen::<English>(f).unwrap()),
        None => to_fen(&Position::<English>::start()),
    };
    (names, start, g.moves.clone(), g.result.clone())
}

#[test]
fn every_encoding_line_end_and_movetext_form_reads_the_same_games() {
    let want: Vec<Essence> = entries("utf8-lf.pdn").iter().map(essence).collect();
    assert_eq!(want.len(), 3);
    let names = &want[0].0;
    assert_eq!(names[0].as_deref(), Some("Café Open"));
    assert_eq!(names[1].as_deref(), Some("René Müller"));
    assert_eq!(names[2].as_deref(), Some("Jürgen Æbelø"));
    assert_eq!(want[0].2.len(), 14);
    assert_eq!(
        (want[0].3.as_str(), want[1].3.as_str(), want[2].3.as_str()),
        ("0-1", "1-0", "")
    );
    for f in SAME_GAMES {
        let got: Vec<Essence> = entries(f).iter().map(essence).collect();
        assert_eq!(got, want, "{f}");
        for e in entries(f) {
            assert_eq!(
                e.game.unwrap().variant(),
                Some(dama::Variant::English),
                "{f}"
            );
        }
    }
    // What the annotated file carries besides the moves.
    let a = entries("annotated.pdn");
    let g = a[0].game.as_ref().unwrap();
    assert_eq!(a[0].line, 4);
    assert_eq!(g.preface, "A preface over two lines");
    assert_eq!(g.mark(0), "!");
    assert_eq!(g.mark(1), "?");
    assert_eq!(g.comment(1), "a comment");
    assert_eq!(g.mark(3), "?!");
    assert_eq!(g.comment(4), "to the end of the line");
    assert_eq!((g.mark(6), g.mark(9), g.mark(10)), ("!?", "??", "!!"));
    assert_eq!(g.comment(13), "last");
    assert_eq!(g.tag("GameType"), Some("21,B,8,8,N2,0"));
}

#[test]
fn written_back_the_tags_keep_their_letters_in_utf8() {
    for f in ["latin1-lf.pdn", "windows1252-crlf.pdn"] {
        let g = entries(f)[0].game.clone().unwrap();
        let text = g.to_text();
        assert!(text.contains("[White \"René Müller\"]"), "{f}: {text}");
        assert!(text.contains("[Black \"Jürgen Æbelø\"]"), "{f}: {text}");
    }
    let g = entries("windows1252-quotes.pdn")[0].game.clone().unwrap();
    assert_eq!(
        g.tag("Event"),
        Some("\u{201c}Open\u{201d} \u{2013} \u{20ac}5 \u{152}uvre")
    );
}

#[test]
fn every_result_token_ends_a_game_and_the_last_may_have_none() {
    let e = entries("results.pdn");
    let results: Vec<&str> = e
        .iter()
        .map(|e| e.game.as_ref().unwrap().result.as_str())
        .collect();
    assert_eq!(
        results,
        ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*", "1-0", "0-1", ""]
    );
    let lines: Vec<usize> = e.iter().map(|e| e.line).collect();
    assert_eq!(lines, [1, 6, 11, 16, 21, 26, 31, 36, 36, 36]);
    assert_eq!(e[9].game.as_ref().unwrap().moves, ["11-16"]);
}

/// `dama annotate --json` at depth 1: per game, its number and the moves it annotated.
fn annotated_moves(file: &str) -> (i32, Vec<(u64, Vec<String>)>, String) {
    let out = command_without_databases()
        .args(["annotate", "--depth", "1", "--json", "--no-egdb-builtin"])
        .arg(fixture(file))
        .output()
        .unwrap();
    let mut games: Vec<(u64, Vec<String>)> = Vec::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let n = v["game"].as_u64().unwrap();
        let mv = v["move"].as_str().unwrap().to_string();
        match games.last_mut() {
            Some((m, moves)) if *m == n => moves.push(mv),
            _ => games.push((n, vec![mv])),
        }
    }
    let err = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap_or(-1), games, err)
}

#[test]
fn annotate_reads_every_form_alike() {
    let (code, want, err) = annotated_moves("utf8-lf.pdn");
    assert_eq!(code, 0, "{err}");
    let counts: Vec<(u64, usize)> = want.iter().map(|(n, m)| (*n, m.len())).collect();
    assert_eq!(counts, [(1, 14), (2, 14), (3, 8)]);
    assert!(err.contains("René Müller - Jürgen Æbelø"), "{err}");
    for f in SAME_GAMES {
        let (code, got, err) = annotated_moves(f);
        assert_eq!(code, 0, "{f}: {err}");
        assert_eq!(got, want, "{f}");
    }
}

#[test]
fn the_board_loads_every_form_alike() {
    let read = |f: &str| {
        let mut bytes = Vec::new();
        std::fs::File::open(fixture(f))
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        let game = dama::serve::table::game_from_pdn::<English>(&decode(&bytes)).unwrap();
        (to_fen(&game.positions()[0]), game.moves().to_vec())
    };
    let want = read("utf8-lf.pdn");
    assert_eq!(want.1.len(), 14);
    for f in SAME_GAMES {
        assert_eq!(read(f), want, "{f}");
    }
}

#[test]
fn a_game_that_does_not_read_is_reported_with_its_number_and_line_and_the_rest_kept() {
    let e = entries("bad-games.pdn");
    assert_eq!(e.len(), 4);
    assert_eq!(
        e[1].game,
        Err("the comment opened on line 9 is not closed before the tags on line 12".into())
    );
    assert_eq!((e[1].number, e[1].line), (2, 6));
    let (code, games, err) = annotated_moves("bad-games.pdn");
    assert_eq!(code, 1, "some games were skipped: {err}");
    assert_eq!(games.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 4]);
    assert!(
        err.contains("game 2 (line 6): the comment opened on line 9 is not closed"),
        "{err}"
    );
    assert!(
        err.contains("game 3 (line 12): illegal move 19-16 at ply 4"),
        "{err}"
    );
}

/// A PDN text of `n` games made as it is read, never held whole.
struct ManyGames {
    n: usize,
    bad: usize,
    next: usize,
    buf: Vec<u8>,
    at: usize,
}

impl Read for ManyGames {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            if self.next == self.n {
                return Ok(0);
            }
            self.next += 1;
            let open = if self.next == self.bad { "{" } else { "" };
            self.buf = format!(
                "[Event \"game {}\"]\r\n[GameType \"21\"]\r\n\r\n1. 11-15 {open}23-19 2. 8-11 22-17 *\r\n\r\n",
                self.next
            )
            .into_bytes();
            self.at = 0;
        }
        let k = out.len().min(self.buf.len() - self.at);
        out[..k].copy_from_slice(&self.buf[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
}

#[test]
fn a_hundred_thousand_games_stream_and_one_bad_game_is_skipped() {
    let source = ManyGames {
        n: 100_000,
        bad: 54_321,
        next: 0,
        buf: Vec::new(),
        at: 0,
    };
    let mut good = 0;
    let mut bad = Vec::new();
    for e in PdnReader::new(std::io::BufReader::new(source)) {
        match &e.game {
            Ok(g) => {
                assert_eq!(g.moves.len(), 4, "{}", e.place());
                assert_eq!(g.tag("Event"), Some(format!("game {}", e.number).as_str()));
                good += 1;
            }
            Err(why) => bad.push((e.number, e.line, why.clone())),
        }
    }
    assert_eq!(good, 99_999);
    let line = (54_321 - 1) * 5 + 1;
    assert_eq!(
        bad,
        [(
            54_321,
            line,
            format!(
                "the comment opened on line {} is not closed before the tags on line {}",
                line + 3,
                line + 5
            )
        )]
    );
}
