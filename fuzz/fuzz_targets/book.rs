//! Opening books: `engine::book::Book::parse` and `book::parse_line`. Input: a flags
//! byte, a variant byte, then the file's text. With flag bit 0 the last line is
//! replaced by the right `# fnv1a64` checksum line, so that mutations get past the
//! checksum to the lines. A book that reads must write back (`to_text`) to one that
//! reads the same, and every position must give a book move as the engine asks for one
//! (`choose` with a margin of 0 to 100, as `book-margin` allows).

#![no_main]

mod common;

use dama::engine::book::{parse_line, Book};
use dama::{with_variant, Rules};
use libfuzzer_sys::fuzz_target;

fn check<R: Rules>(text: &str, margin: i32, pick: u64) {
    for line in text.lines() {
        let _ = parse_line::<R>(line);
    }
    let Ok(book) = Book::<R>::parse(text) else {
        return;
    };
    let written = book.to_text();
    let again = Book::<R>::parse(&written).expect("a book read writes back readable");
    assert_eq!(again.len(), book.len());
    assert_eq!(again.to_text(), written);
    for (pos, moves) in book.positions() {
        if !moves.is_empty() {
            let mv = book.choose(pos, margin, pick).expect("a move of the book");
            assert!(moves.iter().any(|m| m.mv == mv));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let variant = common::variant(data[1]);
    let margin = i32::from(data[0] >> 1) % 101;
    let mut text = String::from_utf8_lossy(&data[2..]).into_owned();
    if data[0] & 1 == 1 {
        let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
        text.truncate(body_end);
        let sum = common::fnv1a64(text.as_bytes());
        text.push_str(&format!("# fnv1a64 {sum:016x}\n"));
    }
    with_variant!(variant, R => check::<R>(&text, margin, u64::from(data[0])));
});
