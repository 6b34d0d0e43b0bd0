//! What the fuzz targets of `fuzz/` found, each input kept as it was found (or
//! minimised) and named after what went wrong; see `fuzz/README.md`. Every reader of
//! outside input must return an error, never panic, hang or allocate without bound.

use dama::protocol::syntax::{parse_line, quote};

/// hub_line: `quote` wrote a value holding a form feed bare, so the line read back split
/// it at the form feed (`parse_line` splits at any whitespace).
#[test]
fn hub_line_quote_keeps_a_value_with_a_form_feed_whole() {
    let value = "\0\0\0\u{c}nam\u{8}e\u{13}ss";
    let line = format!("error message={}", quote(value));
    let read = parse_line(&line).unwrap().unwrap();
    assert_eq!(read.get("message"), Some(value));
    for odd in ["a\u{b}b", "a\u{a0}b", "a\u{2003}b", "a\u{85}b"] {
        let line = format!("x v={}", quote(odd));
        assert_eq!(
            parse_line(&line).unwrap().unwrap().get("v"),
            Some(odd),
            "{odd:?}"
        );
    }
}

/// The text of a book file of `variant` with its lines and the right checksum line.
fn book_text(variant: &str, lines: &[&str]) -> String {
    let mut text = format!("# dama book 1\n# variant {variant}\n");
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    let sum = dama::engine::book::fnv1a64(text.as_bytes());
    text + &format!("# fnv1a64 {sum:016x}\n")
}

/// book (review of the target): a book move scored near `i32::MIN` made `choose`
/// overflow in `best - margin`.
#[test]
fn book_choose_with_the_lowest_score() {
    use dama::engine::book::Book;
    use dama::rules::English;
    let text = book_text(
        "english",
        &["B:W21-32:B1-12 | 11-15 -2147483648 1 | 9-13 -2147483647 1"],
    );
    let book = Book::<English>::parse(&text).unwrap();
    let start = dama::Position::<English>::start();
    for margin in [0, 1, 100] {
        assert!(book.choose(&start, margin, 3).is_some());
    }
}
